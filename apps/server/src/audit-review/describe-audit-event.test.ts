import { photoReference, serializeTracing, tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { type AuditRecordToDescribe, describeAuditEvent } from './describe-audit-event.ts';

/**
 * Issue 43 item 7: the audit trail read by an inspector says what changed in words. Each record below
 * has the shape its command writes (subjects/form-data.ts, form-photos, holds, signatures, auth/login),
 * described with the demo study's definition: labels and coded answers from the definition, and never
 * a hash, a JSON text or an internal id on the page.
 */

const record = (fields: Partial<AuditRecordToDescribe>): AuditRecordToDescribe => ({
  event_type: 'data.item_changed',
  entity_type: 'item',
  entity_id: null,
  before: null,
  after: null,
  visit_key: null,
  form_key: null,
  item_key: null,
  ...fields,
});

const itemChange = (visit: string, form: string, item: string, before: unknown, after: unknown) =>
  record({
    entity_id: `${visit}.${form}.${item}`,
    visit_key: visit,
    form_key: form,
    item_key: item,
    before: { value: before },
    after: { value: after },
  });

/** Everything the page shows of a description, as one text per language. */
function shown(description: ReturnType<typeof describeAuditEvent>, language: 'ko' | 'en'): string {
  return JSON.stringify([
    description.visitLabel?.[language],
    description.formLabel?.[language],
    description.itemLabel?.[language],
    description.about?.[language],
    description.changes.map((change) => [
      change.field?.[language],
      change.before?.[language],
      change.after?.[language],
    ]),
  ]);
}

const sha256 = 'b75d12cb9c2444be653c1a7d50fdc70d39aa3c56d4e4a96ace9d3cd768983bf9';

describe('describeAuditEvent', () => {
  it('names a saved value by the visit, form and item labels of the definition', () => {
    const description = describeAuditEvent(
      itemChange('v1', 'vitalSigns', 'heartRate', 72, 76),
      tmPerforationStudy,
    );
    expect(description.visitLabel?.en).not.toBe('v1');
    expect(description.formLabel?.en).not.toBe('vitalSigns');
    expect(description.itemLabel?.en).not.toBe('heartRate');
    expect(description.about).toBeNull();
    expect(description.changes).toHaveLength(1);
    expect(description.changes[0]?.field).toBeNull();
    expect(description.changes[0]?.before?.en).toMatch(/^72\b/);
    expect(description.changes[0]?.after?.en).toMatch(/^76\b/);
  });

  it('shows a coded answer by its label, not its code', () => {
    const description = describeAuditEvent(
      itemChange('v1', 'demographicInfo', 'gender', null, 'F'),
      tmPerforationStudy,
    );
    expect(description.itemLabel).toEqual({ ko: '성별', en: 'Sex' });
    expect(description.changes).toEqual([{ field: null, before: null, after: { ko: '여', en: 'Female' } }]);
  });

  it('shows a photo and a tracing in words, without the hash or the JSON', () => {
    const photo = describeAuditEvent(
      itemChange('v3', 'tympanicPhoto', 'photo', null, photoReference(12, sha256)),
      tmPerforationStudy,
    );
    expect(photo.changes[0]?.after).toEqual({ ko: '사진', en: 'Photo' });
    const replaced = describeAuditEvent(
      itemChange('v3', 'tympanicPhoto', 'photo', photoReference(12, sha256), photoReference(13, sha256)),
      tmPerforationStudy,
    );
    expect(replaced.changes[0]?.after?.en).toBe('New photo');

    const tracing = serializeTracing({
      version: 1,
      aspect: 4 / 3,
      membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.4, ry: 0.4 },
      perforation: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.2, ry: 0.2 },
    });
    const traced = describeAuditEvent(
      itemChange('v3', 'tympanicPhoto', 'tracing', null, tracing),
      tmPerforationStudy,
    );
    expect(traced.changes[0]?.after).toEqual({ ko: '윤곽 그림 (면적 25.0%)', en: 'Tracing (area 25.0%)' });

    // The upload itself (form-photos/upload-form-photo.ts): its size, not its hash, sizes or ids.
    const upload = describeAuditEvent(
      record({
        event_type: 'form_photo.uploaded',
        entity_type: 'form_photo',
        entity_id: '12',
        visit_key: 'v3',
        form_key: 'tympanicPhoto',
        after: {
          visitKey: 'v3',
          formKey: 'tympanicPhoto',
          sha256,
          sourceType: 'camera',
          uploadedSize: 40_000,
          size: 19_215,
          width: 800,
          height: 600,
        },
      }),
      tmPerforationStudy,
    );
    expect(upload.about).toEqual({ ko: '사진', en: 'Photo' });
    expect(upload.formLabel?.en).toBe('Tympanic membrane photograph');
    for (const language of ['ko', 'en'] as const) {
      const text = shown(upload, language);
      expect(text).not.toContain(sha256);
      expect(text).not.toMatch(/tympanicPhoto|visitKey|19215|40000/);
      expect(text).toContain('800×600');
    }
    for (const description of [photo, replaced, traced]) {
      for (const language of ['ko', 'en'] as const) {
        expect(shown(description, language)).not.toMatch(/sha|[0-9a-f]{64}|\{"|version/);
      }
    }
  });

  it('describes a lock by its kind and level, and a signature by its meaning in the reader language', () => {
    const lock = describeAuditEvent(
      record({
        event_type: 'hold.placed',
        entity_type: 'hold',
        entity_id: '1',
        after: { kind: 'locked', level: 'subject', visitKey: null, formKey: null },
      }),
      tmPerforationStudy,
    );
    expect(lock.about).toEqual({ ko: '프리징/잠금', en: 'Freeze or lock' });
    expect(lock.changes).toEqual([
      { field: { ko: '종류', en: 'Kind' }, before: null, after: { ko: '잠금', en: 'Locked' } },
      { field: { ko: '범위', en: 'Level' }, before: null, after: { ko: '대상자', en: 'Subject' } },
    ]);

    const signed = describeAuditEvent(
      record({
        event_type: 'signature.signed',
        entity_type: 'signature',
        entity_id: '4',
        after: {
          printedName: '김연구',
          role: 'PI',
          signedAt: '2026-11-30T01:00:00.000Z',
          meaning: { ko: '본인은 확인합니다.', en: 'I confirm.' },
          dataHash: sha256,
        },
      }),
      tmPerforationStudy,
    );
    expect(signed.changes.find((change) => change.field?.en === 'Meaning')?.after).toEqual({
      ko: '본인은 확인합니다.',
      en: 'I confirm.',
    });
    expect(shown(signed, 'en')).not.toMatch(/[0-9a-f]{64}|\{"|dataHash/);
  });

  it('describes a login by its kind alone, and a record outside the definition by its stored keys', () => {
    const login = describeAuditEvent(
      record({ event_type: 'auth.login_succeeded', entity_type: 'session', entity_id: '7' }),
      undefined,
    );
    expect(login).toEqual({
      visitLabel: null,
      formLabel: null,
      itemLabel: null,
      about: { ko: '로그인 세션', en: 'Session' },
      changes: [],
    });

    const unknown = describeAuditEvent(itemChange('v99', 'oldForm', 'oldItem', 'a', 'b'), tmPerforationStudy);
    expect([unknown.visitLabel?.en, unknown.formLabel?.en, unknown.itemLabel?.en]).toEqual([
      'v99',
      'oldForm',
      'oldItem',
    ]);
    expect(unknown.changes[0]).toMatchObject({ before: { en: 'a' }, after: { en: 'b' } });
  });

  it('reads an SDV record value as the form shows it, and its state in words', () => {
    const verified = describeAuditEvent(
      record({
        event_type: 'sdv.verified',
        entity_type: 'item',
        entity_id: 'v1.demographicInfo.gender',
        visit_key: 'v1',
        form_key: 'demographicInfo',
        item_key: 'gender',
        before: { state: 'unverified' },
        after: { state: 'verified', value: 'M' },
      }),
      tmPerforationStudy,
    );
    expect(verified.changes).toEqual([
      {
        field: { ko: '상태', en: 'State' },
        before: { ko: '미확인', en: 'Not verified' },
        after: { ko: '확인됨', en: 'Verified' },
      },
      { field: { ko: '값', en: 'Value' }, before: null, after: { ko: '남', en: 'Male' } },
    ]);
  });
});
