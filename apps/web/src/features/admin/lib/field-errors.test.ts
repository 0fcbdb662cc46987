import { createStudyRequestSchema, createUserRequestSchema, siteRequestSchema } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { fieldErrorKeys, pathErrorKeys } from './field-errors.ts';

function errorsOf(result: { success: boolean; error?: unknown }) {
  if (result.success) throw new Error('expected the parse to fail');
  return fieldErrorKeys(result.error as Parameters<typeof fieldErrorKeys>[0]);
}

describe('fieldErrorKeys', () => {
  it("uses the contract's named errors", () => {
    expect(errorsOf(siteRequestSchema.safeParse({ code: 'a b', name: 'X', institutionNumber: '1' }))).toEqual(
      {
        code: 'validation.invalid_site_code',
        institutionNumber: 'validation.invalid_institution_number',
      },
    );
  });

  it('falls back to required / invalid by issue kind, one error per field', () => {
    const errors = errorsOf(
      createUserRequestSchema.safeParse({ email: 'nope', name: '  ', contact: 'abc', password: '' }),
    );
    expect(errors).toEqual({
      email: 'validation.invalid_email',
      name: 'validation.required',
      contact: 'validation.invalid_contact',
      password: 'validation.required',
    });
  });

  it("keys a row's errors by their whole path, number formats by their problem", () => {
    const parsed = createStudyRequestSchema.safeParse({
      code: 'FMT-1',
      protocolNumber: '',
      titleKo: '형식',
      titleEn: '',
      sponsor: '',
      kind: 'drug',
      content: '',
      screeningNumberFormat: 'S-{seq:3}',
      randomizationNumberFormat: 'R{site}',
      sites: [
        { code: 'A', name: 'A', institutionNumber: '01' },
        { code: 'b c', name: '', institutionNumber: '02' },
      ],
    });
    if (parsed.success) throw new Error('expected the parse to fail');
    expect(pathErrorKeys(parsed.error)).toEqual({
      screeningNumberFormat: 'validation.number_format_needs_site',
      randomizationNumberFormat: 'validation.number_format_needs_seq',
      'sites.1.code': 'validation.invalid_site_code',
      'sites.1.name': 'validation.required',
    });
  });
});
