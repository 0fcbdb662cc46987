import { getStudyIndex, tmPerforationStudy } from '@cdms/study';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * Whatever a client sends as a form's values, the server answers 200 or a 4xx — never 500 — and a
 * refused save changes nothing: not the form's version, not a value, not the audit trail.
 */
describeWithDatabase(
  'saving random values',
  (database) => {
    let app: App;
    let crc: SignedIn;
    let studyId: number;
    let subjectId: number;
    const layouts = getStudyIndex(tmPerforationStudy).schedule;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      crc = await signIn(app, 'crc@demo.cdms');
      studyId = (
        await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'TMP-2026')
          .executeTakeFirstOrThrow()
      ).id;
      const site = await database()
        .db.selectFrom('sites')
        .select('id')
        .where('study_id', '=', studyId)
        .where('institution_number', '=', '02')
        .executeTakeFirstOrThrow();
      const created = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        payload: { siteId: site.id, consentDate: '2025-03-03', initials: 'PBT' },
        headers: crc.headers,
      });
      subjectId = created.json().id;
    });
    afterAll(async () => {
      await app.close();
    });

    const snapshot = async () => {
      const audit = await sql<{ count: number }>`select count(*)::int as count from audit_events`.execute(
        database().db,
      );
      const values = await sql<{
        digest: string;
      }>`select coalesce(md5(string_agg(form_instance_id || item_key || value::text, ',' order by form_instance_id, item_key)), '') as digest from item_values`.execute(
        database().db,
      );
      const versions = await sql<{
        digest: string;
      }>`select coalesce(string_agg(id || ':' || version, ',' order by id), '') as digest from form_instances`.execute(
        database().db,
      );
      return [audit.rows[0]?.count, values.rows[0]?.digest, versions.rows[0]?.digest];
    };

    it('never answers 500 and never saves part of a refused form', async () => {
      const itemKeys = (index: number) => {
        const layout = layouts[index % layouts.length];
        return layout ? [...layout.items.keys(), ...layout.groups.keys()] : [];
      };
      const arbitraryValue = fc.oneof(
        fc.constant(null),
        fc.string({ maxLength: 12 }),
        fc.integer({ min: -1000, max: 100_000 }),
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.constantFrom('2025-03-10', '1990-02-30', '12:35', 'Y', 'N', '001', 'M', 'F'),
        fc.array(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 }),
        fc.jsonValue({ maxDepth: 2 }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.nat(),
          fc.array(fc.tuple(fc.nat(), arbitraryValue), { maxLength: 8 }),
          fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
          fc.integer({ min: -1, max: 3 }),
          async (formIndex, picks, extra, version) => {
            const layout = layouts[formIndex % layouts.length];
            if (!layout) return;
            const keys = itemKeys(formIndex);
            const values: Record<string, unknown> = { ...extra };
            for (const [keyIndex, value] of picks)
              if (keys.length > 0) values[keys[keyIndex % keys.length] as string] = value;
            const before = await snapshot();
            const response = await app.inject({
              method: 'PUT',
              url: `/api/studies/${studyId}/subjects/${subjectId}/forms/${layout.visitKey}/${layout.form.key}`,
              payload: { values, version, reasons: { any: 'property test' } },
              headers: crc.headers,
            });
            expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
            if (response.statusCode !== 200) expect(await snapshot()).toEqual(before);
          },
        ),
        { numRuns: 80 },
      );
    });
  },
  { seed: 'demo' },
);
