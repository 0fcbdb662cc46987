import { createHash } from 'node:crypto';
import { parsePhotoReference, parseTracing, roundTo, tracingDiameterPercent } from '@cdms/study';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';

/**
 * The living demo's eardrum photos (issue 19): drawn by the seed, uploaded and traced as a coordinator
 * does; every tympanicPhoto form with a photo refers to a stored JPEG of its own form with the right
 * hash and no metadata, its tracing gives the percent stored with it, and a follow-up with a photo has
 * its V2 baseline photo to show beside it. Registered through test/living-demo.test.ts.
 */
export function demoPhotoChecks(database: () => DatabaseHandle): void {
  interface Row {
    subject_id: number;
    visit_key: string;
    values: Record<string, unknown>;
  }
  let forms: Row[] = [];

  beforeAll(async () => {
    const rows = await database()
      .db.selectFrom('item_values')
      .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
      .select([
        'form_instances.subject_id',
        'form_instances.visit_key',
        'item_values.item_key',
        'item_values.value',
      ])
      .where('form_instances.form_key', '=', 'tympanicPhoto')
      .execute();
    const byForm = new Map<string, Row>();
    for (const row of rows) {
      const key = `${row.subject_id}.${row.visit_key}`;
      const form = byForm.get(key) ?? { subject_id: row.subject_id, visit_key: row.visit_key, values: {} };
      form.values[row.item_key] = row.value;
      byForm.set(key, form);
    }
    forms = [...byForm.values()].filter(
      (form) => form.values.photo !== null && form.values.photo !== undefined,
    );
  });

  it('has subjects with a photo at every tympanicPhoto visit they reached, V1 to V6', () => {
    const subjects = new Set(forms.map((form) => form.subject_id));
    expect(subjects.size).toBeGreaterThanOrEqual(2);
    const visits = new Set(forms.map((form) => form.visit_key));
    for (const visit of ['v1', 'v2', 'v4', 'v6']) expect(visits).toContain(visit);
  });

  it('refers to stored JPEGs of the same form, hashed, without metadata', async () => {
    for (const form of forms) {
      const reference = parsePhotoReference(form.values.photo);
      expect(reference, JSON.stringify(form.values.photo)).not.toBeNull();
      const photo = await database()
        .db.selectFrom('form_photos')
        .select(['bytes', 'sha256', 'subject_id', 'visit_key', 'form_key', 'content_type'])
        .where('id', '=', reference?.photoId ?? 0)
        .executeTakeFirstOrThrow();
      expect(photo).toMatchObject({
        subject_id: form.subject_id,
        visit_key: form.visit_key,
        form_key: 'tympanicPhoto',
      });
      expect(photo.sha256).toBe(reference?.sha256);
      expect(createHash('sha256').update(photo.bytes).digest('hex')).toBe(photo.sha256);
      const metadata = await sharp(Buffer.from(photo.bytes)).metadata();
      expect(metadata.format).toBe('jpeg');
      expect(metadata.exif).toBeUndefined();
    }
  });

  it('stores the percent its tracing gives, with the method', () => {
    let traced = 0;
    for (const form of forms) {
      const tracing = parseTracing(form.values.tracing);
      expect(tracing).not.toBeNull();
      const percent = tracing ? tracingDiameterPercent(tracing) : null;
      if (percent === null) {
        // Healed: the membrane traced, no perforation; the diameter is typed (0).
        expect(form.values.measurementMethod).toBe('typed');
        continue;
      }
      traced += 1;
      expect(form.values.measurementMethod).toBe('traced');
      expect(form.values.perforationPercent).toBe(roundTo(percent, 1));
    }
    expect(traced).toBeGreaterThan(0);
  });

  it('has the V2 baseline photo for each follow-up photo of V4 to V6', () => {
    for (const form of forms.filter((f) => ['v4', 'v5', 'v6'].includes(f.visit_key))) {
      const baseline = forms.find((f) => f.subject_id === form.subject_id && f.visit_key === 'v2');
      expect(baseline, `subject ${form.subject_id} ${form.visit_key}`).toBeDefined();
    }
  });
}
