import type { Localized } from './signal-draft.ts';

/**
 * The words of each signal, in Korean and English: a title that says what and where, and an
 * explanation that says how it was found and what the numbers mean, so a monitor can judge it
 * without knowing the method. Numbers are written as a person reads them.
 */

export function formatNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return '—';
  return Number(value.toFixed(digits)).toString();
}

export function formatP(pValue: number): string {
  if (pValue < 0.0001) return 'p < 0.0001';
  return `p = ${formatNumber(pValue, 4)}`;
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${formatNumber((part * 100) / whole, 1)}%` : '—';
}

interface Where {
  site: string;
  item: Localized;
}

export function siteDistributionWords(
  kind: 'siteMean' | 'siteVariance' | 'lowVariance',
  where: Where,
  n: { site: number; others: number; z: number; pValue: number; count: number },
): { title: Localized; explanation: Localized } {
  const z = formatNumber(n.z, 1);
  const p = formatP(n.pValue);
  const site = formatNumber(n.site);
  const others = formatNumber(n.others);
  if (kind === 'siteMean') {
    const higher = n.z > 0;
    return {
      title: {
        ko: `기관 ${where.site}의 ${where.item.ko} 평균이 다른 기관보다 ${higher ? '높습니다' : '낮습니다'}`,
        en: `Site ${where.site}: ${where.item.en} averages ${higher ? 'higher' : 'lower'} than at the other sites`,
      },
      explanation: {
        ko: `기관 ${where.site}의 ${where.item.ko} 값 ${n.count}개의 평균은 ${site}이고 다른 기관 평균의 중앙값은 ${others}입니다. 기관별 평균을 중앙값과 MAD로 비교한 로버스트 z는 ${z}(${p})입니다. 측정 장비의 보정, 단위 혼동, 측정 방법의 차이를 확인하세요.`,
        en: `The ${n.count} values of ${where.item.en} at site ${where.site} average ${site}; the other sites' averages have a median of ${others}. Compared with every site's average by median and MAD, the robust z is ${z} (${p}). Check the device's calibration, the unit and how the measurement is taken.`,
      },
    };
  }
  if (kind === 'siteVariance')
    return {
      title: {
        ko: `기관 ${where.site}의 ${where.item.ko} 값이 다른 기관보다 넓게 흩어져 있습니다`,
        en: `Site ${where.site}: ${where.item.en} varies far more than at the other sites`,
      },
      explanation: {
        ko: `기관 ${where.site}의 ${where.item.ko} 값 ${n.count}개의 표준편차는 ${site}이고 다른 기관 표준편차의 중앙값은 ${others}입니다(로버스트 z ${z}, ${p}). 입력 오류나 단위가 섞인 값이 있는지 확인하세요.`,
        en: `The ${n.count} values of ${where.item.en} at site ${where.site} have a standard deviation of ${site}; the other sites' have a median of ${others} (robust z ${z}, ${p}). Look for entry errors or values in another unit.`,
      },
    };
  return {
    title: {
      ko: `기관 ${where.site}의 ${where.item.ko} 값이 지나치게 비슷합니다`,
      en: `Site ${where.site}: ${where.item.en} varies far less than at the other sites`,
    },
    explanation: {
      ko: `기관 ${where.site}의 ${where.item.ko} 값 ${n.count}개의 표준편차는 ${site}로, 다른 기관 표준편차의 중앙값 ${others}보다 훨씬 작습니다(로버스트 z ${z}, ${p}). 실제 측정값은 사람마다 흩어지기 마련이므로, 값이 옮겨 적히거나 만들어지지 않았는지 원자료와 대조하세요.`,
      en: `The ${n.count} values of ${where.item.en} at site ${where.site} have a standard deviation of ${site}, far under the other sites' median of ${others} (robust z ${z}, ${p}). Real measurements spread from person to person: compare them with the source documents to rule out copied or invented values.`,
    },
  };
}

export function digitPreferenceWords(
  where: Where,
  n: { count: number; chiSquare: number; pValue: number; preferred: number[]; preferredShare: string },
): { title: Localized; explanation: Localized } {
  const digits = n.preferred.length > 0 ? n.preferred.join(', ') : '—';
  return {
    title: {
      ko: `기관 ${where.site}의 ${where.item.ko} 끝자리가 ${digits}에 몰려 있습니다`,
      en: `Site ${where.site}: ${where.item.en} ends in ${digits} far too often`,
    },
    explanation: {
      ko: `기관 ${where.site}의 ${where.item.ko} 값 ${n.count}개 중 ${n.preferredShare}가 ${digits}로 끝납니다. 측정값의 끝자리는 0부터 9까지 고르게 나오는 것이 보통인데, 카이제곱 검정 결과 ${formatNumber(n.chiSquare, 1)}(자유도 9, ${formatP(n.pValue)})로 고르지 않습니다. 눈으로 읽어 반올림했거나 값을 지어낸 경우에 흔히 보입니다.`,
      en: `${n.preferredShare} of the ${n.count} values of ${where.item.en} at site ${where.site} end in ${digits}. The last digit of a measurement is usually spread evenly over 0 to 9; the chi-square test gives ${formatNumber(n.chiSquare, 1)} (9 degrees of freedom, ${formatP(n.pValue)}). This is typical of values read by eye and rounded, or invented.`,
    },
  };
}

export function duplicateRecordWords(
  form: Localized,
  n: { subjects: string[]; total: number; filledValues: number },
): { title: Localized; explanation: Localized } {
  const named = n.subjects.slice(0, 5).join(', ');
  const more = n.total - Math.min(5, n.subjects.length);
  const who = {
    ko: more > 0 ? `${named} 외 ${more}명` : named,
    en: more > 0 ? `${named} and ${more} more` : named,
  };
  return {
    title: {
      ko: `대상자 ${who.ko}의 ${form.ko} 기록이 똑같습니다`,
      en: `${form.en}: identical records of subjects ${who.en}`,
    },
    explanation: {
      ko: `서로 다른 대상자 ${n.total}명의 ${form.ko} 기록이 입력된 값 ${n.filledValues}개 모두 같습니다. 측정값이 모두 일치할 가능성은 매우 낮으므로, 다른 대상자의 기록을 옮겨 적었거나 잘못된 대상자에 입력하지 않았는지 확인하세요.`,
      en: `The ${form.en} records of ${n.total} different subjects agree in all ${n.filledValues} values entered. Measurements rarely coincide that far: check whether a record was copied from another subject or entered for the wrong one.`,
    },
  };
}

export function weekdayPatternWords(
  site: string,
  n: { offDays: number; count: number; share: number; othersShare: number; pValue: number },
): { title: Localized; explanation: Localized } {
  const share = `${formatNumber(n.share * 100, 1)}%`;
  const others = `${formatNumber(n.othersShare * 100, 1)}%`;
  return {
    title: {
      ko: `기관 ${site}의 방문이 주말과 공휴일에 많습니다`,
      en: `Site ${site}: many visits on weekends and holidays`,
    },
    explanation: {
      ko: `기관 ${site}의 방문 ${n.count}건 중 ${n.offDays}건(${share})의 방문일이 토요일, 일요일 또는 공휴일로, 다른 기관의 ${others}보다 많습니다(이항 검정 ${formatP(n.pValue)}). 방문일 대신 입력한 날을 적었거나 나중에 채워 넣은 기록일 수 있습니다.`,
      en: `${n.offDays} of the ${n.count} visits at site ${site} (${share}) are dated on a Saturday, Sunday or public holiday, against ${others} at the other sites (binomial test, ${formatP(n.pValue)}). The day of entry may have been written as the visit date, or the records filled in later.`,
    },
  };
}

export function seriesOutlierWords(
  where: { subject: string; item: Localized; visit: Localized },
  n: { value: number; expected: number; z: number },
): { title: Localized; explanation: Localized } {
  const value = formatNumber(n.value);
  const expected = formatNumber(n.expected);
  return {
    title: {
      ko: `대상자 ${where.subject}의 ${where.visit.ko} ${where.item.ko} 값이 튑니다`,
      en: `Subject ${where.subject}: ${where.item.en} at ${where.visit.en} jumps out of the series`,
    },
    explanation: {
      ko: `대상자 ${where.subject}의 ${where.visit.ko} ${where.item.ko} 값은 ${value}이고, 같은 대상자의 다른 방문 값의 중앙값은 ${expected}입니다(로버스트 z ${formatNumber(n.z, 1)}). 오타, 단위 혼동, 다른 대상자의 값이 아닌지 확인하세요.`,
      en: `Subject ${where.subject}'s ${where.item.en} at ${where.visit.en} is ${value}; the median of the subject's other visits is ${expected} (robust z ${formatNumber(n.z, 1)}). Check for a typo, a unit mix-up or another subject's value.`,
    },
  };
}
