import type { LocalizedText } from '../model/localized-text.ts';

// Messages the engine writes itself (built-in checks and value validation), in both languages.

function rangeText(min: number | undefined, max: number | undefined): { ko: string; en: string } {
  if (min !== undefined && max !== undefined) return { ko: `${min}~${max}`, en: `${min} to ${max}` };
  if (min !== undefined) return { ko: `${min} 이상`, en: `at least ${min}` };
  return { ko: `${max} 이하`, en: `at most ${max}` };
}

export const builtInMessages = {
  outOfRange(min: number | undefined, max: number | undefined): LocalizedText {
    const range = rangeText(min, max);
    return {
      ko: `입력값이 허용 범위(${range.ko})를 벗어났습니다. 값을 확인하십시오.`,
      en: `The value is outside the expected range (${range.en}). Please confirm it.`,
    };
  },
  outsideLimits(min: number | undefined, max: number | undefined): LocalizedText {
    const range = rangeText(min, max);
    return {
      ko: `입력값이 가능한 범위(${range.ko})를 벗어나 저장할 수 없습니다. 단위와 값을 확인하십시오.`,
      en: `The value is outside the possible limits (${range.en}) and cannot be saved. Please check the value and its unit.`,
    };
  },
  futureDate: {
    ko: '오늘 이후의 날짜는 입력할 수 없습니다.',
    en: 'The date cannot be later than today.',
  } satisfies LocalizedText,
};

export const VALUE_ERROR_CODES = [
  'notAnObject',
  'unknownForm',
  'unknownItem',
  'notAString',
  'tooLong',
  'patternMismatch',
  'notANumber',
  'notAnInteger',
  'tooManyDecimals',
  'invalidDate',
  'invalidTime',
  'notInCodeList',
  'notABoolean',
  'notAList',
  'duplicateChoice',
  'notARow',
  'tooManyRows',
  'invalidPhotoReference',
  'invalidTracing',
] as const;
export type ValueErrorCode = (typeof VALUE_ERROR_CODES)[number];

export function valueErrorMessage(code: ValueErrorCode, limit?: number): LocalizedText {
  switch (code) {
    case 'notAnObject':
      return { ko: '양식 값의 형식이 올바르지 않습니다.', en: 'The form values must be an object.' };
    case 'unknownForm':
      return { ko: '이 방문에 없는 양식입니다.', en: 'This visit has no such form.' };
    case 'unknownItem':
      return { ko: '이 양식에 없는 항목입니다.', en: 'This form has no such item.' };
    case 'notAString':
      return { ko: '문자로 입력하십시오.', en: 'Enter text.' };
    case 'tooLong':
      return {
        ko: `최대 ${limit}자까지 입력할 수 있습니다.`,
        en: `At most ${limit} characters are allowed.`,
      };
    case 'patternMismatch':
      return { ko: '입력 형식이 올바르지 않습니다.', en: 'The value does not have the expected format.' };
    case 'notANumber':
      return { ko: '숫자로 입력하십시오.', en: 'Enter a number.' };
    case 'notAnInteger':
      return { ko: '정수로 입력하십시오.', en: 'Enter a whole number.' };
    case 'tooManyDecimals':
      return {
        ko: `소수점 이하 ${limit}자리까지 입력할 수 있습니다.`,
        en: `At most ${limit} decimal places are allowed.`,
      };
    case 'invalidDate':
      return {
        ko: '날짜를 YYYY-MM-DD 형식의 실제 날짜로 입력하십시오.',
        en: 'Enter a real date as YYYY-MM-DD.',
      };
    case 'invalidTime':
      return { ko: '시각을 HH:mm 형식으로 입력하십시오.', en: 'Enter a time as HH:mm.' };
    case 'notInCodeList':
      return { ko: '선택할 수 없는 값입니다.', en: 'This value is not one of the choices.' };
    case 'notABoolean':
      return { ko: '체크 여부(true/false)로 입력하십시오.', en: 'The value must be true or false.' };
    case 'notAList':
      return { ko: '목록 형식이어야 합니다.', en: 'The value must be a list.' };
    case 'duplicateChoice':
      return { ko: '같은 값을 두 번 선택할 수 없습니다.', en: 'A choice cannot be selected twice.' };
    case 'notARow':
      return { ko: '행의 형식이 올바르지 않습니다.', en: 'Each row must be an object.' };
    case 'tooManyRows':
      return { ko: `최대 ${limit}개 행까지 입력할 수 있습니다.`, en: `At most ${limit} rows are allowed.` };
    case 'invalidPhotoReference':
      return {
        ko: '사진 참조가 올바르지 않습니다. 사진을 다시 올리십시오.',
        en: 'The photo reference is not valid. Upload the photo again.',
      };
    case 'invalidTracing':
      return {
        ko: '사진 위 측정(윤곽) 자료가 올바르지 않습니다.',
        en: 'The tracing on the photo is not valid.',
      };
  }
}
