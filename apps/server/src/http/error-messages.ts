import type { Language } from './language.ts';

/**
 * The message of every API error code, in Korean and English. Codes are stable (clients may branch
 * on them); messages are for people. `{name}` placeholders are filled from the error's params.
 */
export const errorMessages = {
  not_found: { ko: '요청한 리소스를 찾을 수 없습니다.', en: 'The requested resource was not found.' },
  route_not_found: {
    ko: 'API 경로를 찾을 수 없습니다: {method} {path}',
    en: 'No API route matches {method} {path}.',
  },
  validation_failed: {
    ko: '요청 값이 올바르지 않습니다.',
    en: 'The request is invalid.',
  },
  malformed_body: {
    ko: '요청 본문을 읽을 수 없습니다. JSON 형식을 확인하세요.',
    en: 'The request body could not be read. Check that it is valid JSON.',
  },
  unsupported_media_type: {
    ko: '지원하지 않는 콘텐츠 형식입니다.',
    en: 'The content type is not supported.',
  },
  payload_too_large: { ko: '요청이 너무 큽니다.', en: 'The request is too large.' },
  method_not_allowed: { ko: '허용되지 않는 요청 방식입니다.', en: 'This method is not allowed here.' },
  too_many_requests: {
    ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요.',
    en: 'Too many requests. Please try again shortly.',
  },
  internal_error: {
    ko: '서버에서 오류가 발생했습니다. 관리자에게 문의하세요.',
    en: 'The server encountered an error. Please contact the administrator.',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type ErrorCode = keyof typeof errorMessages;

export function errorMessage(
  code: ErrorCode,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  return errorMessages[code][language].replace(/\{(\w+)\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}
