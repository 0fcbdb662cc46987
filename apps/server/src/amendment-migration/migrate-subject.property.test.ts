import type { StudyDefinition } from '@cdms/study';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { amendedVersion, DECLARATIONS } from '../../test/fixtures/amended-demo-version.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { runMigrationTurn } from './run-migration-turn.ts';

/**
 * Issue 49 item 8: migrating a subject and then reading it gives what entering the same data under the
 * new version directly gives — values, derived values, the form's status and its system queries —
 * except the retired items. For random vital signs: one subject enters them under the live version and
 * is migrated; another, moved to the new version first, enters them as the amendment declares they
 * read there (the remark renamed, the result re-coded, the measurement date retired).
 */
describeWithDatabase(
  'migrate then read = enter under the new version',
  (database) => {
    let app: App;
    let studyId: number;
    let siteId: number;
    let amendmentId: number;
    const session: Record<string, SignedIn> = {};
    const as = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const response = await app.inject({
        method,
        url,
        headers: session[who]?.headers ?? {},
        ...(payload ? { payload } : {}),
      });
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const base = () => `/api/studies/${studyId}/amendments`;
    /** A new subject, moved to the amendment's version by a job of its own when `moved`. */
    const register = async (moved: boolean) => {
      const { id } = await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'PBT',
      });
      if (moved) await migrate(id);
      return id as number;
    };
    const migrate = async (subjectId: number) => {
      await as('dm', 'POST', `${base()}/${amendmentId}/migrations`, { scope: 'subject', subjectId });
      while (await runMigrationTurn(database().db)) {}
    };
    const vitals = (subjectId: number) => `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns`;
    /** What a reader sees of the form: values, derived values, status and the checks of its open queries. */
    const read = async (subjectId: number) => {
      const form = await as('crc', 'GET', vitals(subjectId));
      const queries = await database()
        .db.selectFrom('queries')
        .select(['item_path', 'check_id'])
        .where('subject_id', '=', subjectId)
        .where('form_key', '=', 'vitalSigns')
        .where('status', 'in', ['open', 'answered'])
        .orderBy('item_path')
        .orderBy('check_id')
        .execute();
      return { values: form.values, derived: form.derived, status: form.status, queries };
    };

    beforeAll(async () => {
      app = await buildTestApp(database(), {}, { migrationWorker: false });
      await app.ready();
      for (const who of ['crc', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      siteId = demo.siteId('02');
      const live = (await as('dm', 'GET', `/api/studies/${studyId}/definition`))
        .definition as StudyDefinition;
      const fields = { number: 'AM-PBT', reason: 'Property test', sites: [] };
      amendmentId = (await as('dm', 'POST', base(), fields)).id;
      const draft = (await as('dm', 'GET', `/api/studies/${studyId}/design-draft`)).draft;
      await as('dm', 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: draft.revision,
        definition: { ...amendedVersion(live), version: '2.0.0' },
      });
      await as('dm', 'PUT', `${base()}/${amendmentId}`, { ...fields, declarations: DECLARATIONS });
      await as('dm', 'POST', `${base()}/${amendmentId}/impact`);
      await as('dm', 'POST', `${base()}/${amendmentId}/publish`, { password: DEMO_PASSWORD });
    }, 120_000);
    afterAll(async () => {
      await app.close();
    });

    it('gives the same form either way, the retired items aside', async () => {
      const entered = fc.record(
        {
          measurementDate: fc.constantFrom('2025-03-04', '2025-03-05'),
          bloodPressureSystolic: fc.integer({ min: 80, max: 180 }),
          bloodPressureDiastolic: fc.integer({ min: 50, max: 110 }),
          heartRate: fc.integer({ min: 40, max: 130 }),
          bodyTemperature: fc.constantFrom(35.5, 36.5, 37.2, 38.4),
          result: fc.constantFrom('normal', 'abnormalNcs', 'abnormalCs'),
          opinion: fc
            .string({ minLength: 1, maxLength: 20 })
            .filter((text) => text.trim() === text && text !== ''),
        },
        { requiredKeys: ['bloodPressureSystolic', 'bloodPressureDiastolic', 'heartRate', 'bodyTemperature'] },
      );
      await fc.assert(
        fc.asyncProperty(entered, async (values) => {
          // Entered under the live version, then migrated.
          const migrated = await register(false);
          await as('crc', 'PUT', vitals(migrated), { values, version: 0 });
          await migrate(migrated);
          // Entered under the new version as the amendment declares the same data read there.
          const { measurementDate: _retired, opinion, result, ...kept } = values;
          const direct = await register(true);
          const { version } = await as('crc', 'GET', vitals(direct));
          await as('crc', 'PUT', vitals(direct), {
            values: {
              ...kept,
              ...(opinion === undefined ? {} : { remark: opinion }),
              ...(result === undefined ? {} : { result: result === 'abnormalNcs' ? 'ncs' : result }),
            },
            version,
          });
          expect(await read(migrated)).toEqual(await read(direct));
        }),
        { numRuns: 12 },
      );
    }, 240_000);
  },
  { seed: 'demo' },
);
