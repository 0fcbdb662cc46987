// Korean public holidays 2024–2027, substitute holidays (대체공휴일), election days and the designated
// temporary holidays (임시공휴일) included, as the weekday-pattern method's default off days besides weekends.
//
// Source: the Public Holidays Act (공휴일에 관한 법률) and the Regulations on Holidays of Government Offices
// (관공서의 공휴일에 관한 규정) for which days are holidays and when a substitute day follows; the lunar dates
// (Seollal, Buddha's Birthday, Chuseok) from the Korea Astronomy and Space Science Institute's calendar. The
// list was generated on 2026-12-07 from the open-source `holidays` Python package (version 0.105, country
// KR), which encodes those rules, and read against them by hand; it includes Labor Day and Constitution Day
// as public holidays from 2026 as that package does (the 2025 amendments). Temporary holidays the government designates later (as it did
// for 2024-10-01 and 2025-01-27) are not foreseeable: add them here when announced, and extend the years
// before 2028.

/** Each holiday with its English name, for a chart's legend or a signal's explanation. */
export const KOREAN_PUBLIC_HOLIDAY_NAMES: ReadonlyMap<string, string> = new Map([
  // 2024
  ['2024-01-01', "New Year's Day"],
  ['2024-02-09', 'The day preceding Korean New Year'],
  ['2024-02-10', 'Korean New Year'],
  ['2024-02-11', 'The second day of Korean New Year'],
  ['2024-02-12', 'Alternative holiday for Korean New Year'],
  ['2024-03-01', 'Independence Movement Day'],
  ['2024-04-10', 'National Assembly Election Day'],
  ['2024-05-05', "Children's Day"],
  ['2024-05-06', "Alternative holiday for Children's Day"],
  ['2024-05-15', "Buddha's Birthday"],
  ['2024-06-06', 'Memorial Day'],
  ['2024-08-15', 'Liberation Day'],
  ['2024-09-16', 'The day preceding Chuseok'],
  ['2024-09-17', 'Chuseok'],
  ['2024-09-18', 'The second day of Chuseok'],
  ['2024-10-01', 'Armed Forces Day'],
  ['2024-10-03', 'National Foundation Day'],
  ['2024-10-09', 'Hangul Day'],
  ['2024-12-25', 'Christmas Day'],
  // 2025
  ['2025-01-01', "New Year's Day"],
  ['2025-01-27', 'Temporary Public Holiday'],
  ['2025-01-28', 'The day preceding Korean New Year'],
  ['2025-01-29', 'Korean New Year'],
  ['2025-01-30', 'The second day of Korean New Year'],
  ['2025-03-01', 'Independence Movement Day'],
  ['2025-03-03', 'Alternative holiday for Independence Movement Day'],
  ['2025-05-05', "Buddha's Birthday; Children's Day"],
  ['2025-05-06', "Alternative holiday for Buddha's Birthday; Alternative holiday for Children's Day"],
  ['2025-06-03', 'Presidential Election Day'],
  ['2025-06-06', 'Memorial Day'],
  ['2025-08-15', 'Liberation Day'],
  ['2025-10-03', 'National Foundation Day'],
  ['2025-10-05', 'The day preceding Chuseok'],
  ['2025-10-06', 'Chuseok'],
  ['2025-10-07', 'The second day of Chuseok'],
  ['2025-10-08', 'Alternative holiday for Chuseok'],
  ['2025-10-09', 'Hangul Day'],
  ['2025-12-25', 'Christmas Day'],
  // 2026
  ['2026-01-01', "New Year's Day"],
  ['2026-02-16', 'The day preceding Korean New Year'],
  ['2026-02-17', 'Korean New Year'],
  ['2026-02-18', 'The second day of Korean New Year'],
  ['2026-03-01', 'Independence Movement Day'],
  ['2026-03-02', 'Alternative holiday for Independence Movement Day'],
  ['2026-05-01', 'Labor Day'],
  ['2026-05-05', "Children's Day"],
  ['2026-05-24', "Buddha's Birthday"],
  ['2026-05-25', "Alternative holiday for Buddha's Birthday"],
  ['2026-06-03', 'Local Election Day'],
  ['2026-06-06', 'Memorial Day'],
  ['2026-07-17', 'Constitution Day'],
  ['2026-08-15', 'Liberation Day'],
  ['2026-08-17', 'Alternative holiday for Liberation Day'],
  ['2026-09-24', 'The day preceding Chuseok'],
  ['2026-09-25', 'Chuseok'],
  ['2026-09-26', 'The second day of Chuseok'],
  ['2026-10-03', 'National Foundation Day'],
  ['2026-10-05', 'Alternative holiday for National Foundation Day'],
  ['2026-10-09', 'Hangul Day'],
  ['2026-12-25', 'Christmas Day'],
  // 2027
  ['2027-01-01', "New Year's Day"],
  ['2027-02-06', 'The day preceding Korean New Year'],
  ['2027-02-07', 'Korean New Year'],
  ['2027-02-08', 'The second day of Korean New Year'],
  ['2027-02-09', 'Alternative holiday for Korean New Year'],
  ['2027-03-01', 'Independence Movement Day'],
  ['2027-05-01', 'Labor Day'],
  ['2027-05-03', 'Alternative holiday for Labor Day'],
  ['2027-05-05', "Children's Day"],
  ['2027-05-13', "Buddha's Birthday"],
  ['2027-06-06', 'Memorial Day'],
  ['2027-07-17', 'Constitution Day'],
  ['2027-07-19', 'Alternative holiday for Constitution Day'],
  ['2027-08-15', 'Liberation Day'],
  ['2027-08-16', 'Alternative holiday for Liberation Day'],
  ['2027-09-14', 'The day preceding Chuseok'],
  ['2027-09-15', 'Chuseok'],
  ['2027-09-16', 'The second day of Chuseok'],
  ['2027-10-03', 'National Foundation Day'],
  ['2027-10-04', 'Alternative holiday for National Foundation Day'],
  ['2027-10-09', 'Hangul Day'],
  ['2027-10-11', 'Alternative holiday for Hangul Day'],
  ['2027-12-25', 'Christmas Day'],
  ['2027-12-27', 'Alternative holiday for Christmas Day'],
]);

/** Korean public holidays 2024–2027 (substitute holidays included), YYYY-MM-DD. */
export const KOREAN_PUBLIC_HOLIDAYS: ReadonlySet<string> = new Set(KOREAN_PUBLIC_HOLIDAY_NAMES.keys());
