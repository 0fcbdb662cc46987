import type { AmendmentMigrationsResponse, AmendmentResponse } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { amendedVersion, DECLARATIONS, itemOf } from '../../test/fixtures/amended-demo-version.ts';
import { compactPdfText } from '../../test/pdf-text.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { countFormTableValues } from '../form-tables/count-form-table-values.ts';
import { formTablePages } from '../form-tables/load-form-table-pages.ts';
import { loadTablesContext } from '../form-tables/tables-context.ts';
import type { App } from '../http/types.ts';
import { countOdmValues } from '../odm/count-odm-values.ts';
import { exportOdm } from '../odm/export-odm.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { runMigrationTurn } from './run-migration-turn.ts';

/**
 * Issue 49 items 1 and 4: a DM publishes an amendment with an e-signature; the study's subjects stay
 * on the version they are on until the migration moves them — a site's job by itself on its approval
 * date, the study's when the DM asks — one subject per transaction: renamed values move, re-coded and
 * converted ones change with the amendment's number as the reason, retired ones are kept apart, SDV
 * marks and signatures follow the save's rules, a subject with a frozen form the amendment touches
 * waits. The worker is off: the test runs its turns.
 */
describeWithDatabase(
  'amendment migration: published with a signature, subjects moved one by one',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    let live: StudyDefinition;
    let amendmentId: number;
    const session: Record<string, SignedIn> = {};
    const subjects: Record<'changed' | 'frozen' | 'elsewhere' | 'waiting', number> = {} as never;
    const subjectIdOf = async (screeningNumber: string) =>
      (
        await database()
          .db.selectFrom('subjects')
          .select('id')
          .where('study_id', '=', studyId)
          .where('screening_number', '=', screeningNumber)
          .executeTakeFirstOrThrow()
      ).id;
    const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const as = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const response = await call(who, method, url, payload);
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const register = async (who: string, siteId: number) =>
      (
        await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
          siteId,
          consentDate: '2025-03-03',
          initials: 'HGD',
        })
      ).id as number;
    const save = (subjectId: number, form: string, values: object, who = 'pi') =>
      as(who, 'PUT', `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/${form}`, {
        values,
        version: 0,
      });
    const formOf = (subjectId: number, form: string) =>
      as('pi', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/${form}`);
    const base = () => `/api/studies/${studyId}/amendments`;
    const versionOf = async (subjectId: number) =>
      (
        await database()
          .db.selectFrom('subjects')
          .select('definition_version')
          .where('id', '=', subjectId)
          .executeTakeFirstOrThrow()
      ).definition_version;
    const runAllTurns = async () => {
      for (let turn = 0; turn < 50; turn++)
        if (!(await runMigrationTurn(database().db, { batchSize: 2 }))) return;
      throw new Error('the migration did not end');
    };

    beforeAll(async () => {
      app = await buildTestApp(database(), {}, { migrationWorker: false });
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
      live = (await as('dm', 'GET', `/api/studies/${studyId}/definition`)).definition;

      subjects.changed = await register('pi', site1);
      await save(subjects.changed, 'vitalSigns', {
        measurementDate: '2025-03-04',
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 80,
        heartRate: 105,
        bodyTemperature: 36.5,
        result: 'abnormalNcs',
        opinion: 'Resting',
      });
      await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify`, {
        subjectPk: subjects.changed,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['result', 'heartRate'],
      });
      subjects.frozen = await register('pi', site1);
      await save(subjects.frozen, 'vitalSigns', {
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 80,
        heartRate: 70,
        bodyTemperature: 36.5,
        result: 'normal',
      });
      await as('dm', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'frozen',
        target: { level: 'form', subjectPk: subjects.frozen, visitKey: 'v1', formKey: 'vitalSigns' },
        reason: 'Interim analysis',
      });
      subjects.elsewhere = await register('crc', site2);
      await save(subjects.elsewhere, 'demographicInfo', { birthDate: '1980-05-05' }, 'crc');

      // The amendment: in effect at site 01 since 2020, not yet approved at 02.
      const opened = await as('dm', 'POST', base(), {
        number: 'AM-09',
        reason: 'Vital signs revised',
        sites: [{ siteId: site1, effectiveOn: '2020-01-01' }],
      });
      amendmentId = opened.id;
      const draft = (await as('dm', 'GET', `/api/studies/${studyId}/design-draft`)).draft;
      await as('dm', 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: draft.revision,
        definition: { ...amendedVersion(live), version: '2.0.0' },
      });
      await as('dm', 'PUT', `${base()}/${amendmentId}`, {
        number: 'AM-09',
        reason: 'Vital signs revised',
        sites: [{ siteId: site1, effectiveOn: '2020-01-01' }],
        declarations: DECLARATIONS,
      });
    }, 120_000);
    afterAll(async () => {
      await app.close();
    });

    it('publishes only a ready amendment whose impact was read, with the signer’s password', async () => {
      const unread = await call('dm', 'POST', `${base()}/${amendmentId}/publish`, {
        password: DEMO_PASSWORD,
      });
      expect(unread.statusCode).toBe(409);
      expect(unread.json().error.code).toBe('amendment_impact_stale');
      await as('dm', 'POST', `${base()}/${amendmentId}/impact`);
      const wrong = await call('dm', 'POST', `${base()}/${amendmentId}/publish`, { password: 'not it' });
      expect(wrong.statusCode).toBe(422);
      expect((await as('dm', 'GET', `${base()}/${amendmentId}`)).amendment.status).toBe('draft');
      // Site staff neither publish nor see amendments.
      const crc = await call('crc', 'POST', `${base()}/${amendmentId}/publish`, { password: DEMO_PASSWORD });
      expect(crc.statusCode).toBeGreaterThanOrEqual(403);

      const published = (await as('dm', 'POST', `${base()}/${amendmentId}/publish`, {
        password: DEMO_PASSWORD,
      })) as AmendmentResponse;
      expect(published.amendment).toMatchObject({
        status: 'published',
        fromVersion: live.version,
        toVersion: '2.0.0',
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        publishedBy: { name: expect.any(String) },
      });
      // The published change set stays readable: the renames among its lines.
      expect(published.changeSet?.changes).toContainEqual(expect.objectContaining({ kind: 'itemRenamed' }));
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'reason'])
        .where('event_type', '=', 'study.amendment_published')
        .executeTakeFirstOrThrow();
      expect(audit.after).toMatchObject({
        contentHash: published.amendment.contentHash,
        meaning: 'approved',
      });
      expect(audit.reason).toBe('AM-09');
    });

    it('keeps every subject on its version until it is migrated; new subjects start on the site’s', async () => {
      for (const id of Object.values(subjects)) expect(await versionOf(id)).toBe(live.version);
      // Data entry still uses the subject's version: the item to be renamed is there, under its old key.
      const form = await formOf(subjects.changed, 'vitalSigns');
      expect(form.values.opinion).toBe('Resting');
      expect(await versionOf(await register('pi', site1))).toBe('2.0.0');
      expect(await versionOf(await register('crc', site2))).toBe(live.version);
    });

    it('moves the site whose approval is in effect by itself, one subject at a time', async () => {
      await runAllTurns();
      const { migrations, subjects: counts } = (await as(
        'dm',
        'GET',
        `${base()}/${amendmentId}/migrations`,
      )) as AmendmentMigrationsResponse;
      expect(migrations).toEqual([
        expect.objectContaining({
          scope: 'site',
          automatic: true,
          status: 'done',
          migrated: 1,
          held: 1,
          failed: 0,
        }),
      ]);
      expect(migrations[0]?.total).toBe(2);
      expect(counts.onToVersion).toBe(2);

      expect(await versionOf(subjects.changed)).toBe('2.0.0');
      expect(await versionOf(subjects.frozen)).toBe(live.version);
      expect(await versionOf(subjects.elsewhere)).toBe(live.version);
      const form = await formOf(subjects.changed, 'vitalSigns');
      // Renamed (moved, not deleted and added), re-coded, converted; the retired date no longer there.
      expect(form.values).toMatchObject({ remark: 'Resting', result: 'ncs', bloodPressureDiastolic: 80 });
      expect(form.values).not.toHaveProperty('opinion');
      expect(form.values).not.toHaveProperty('measurementDate');
      const retired = await database()
        .db.selectFrom('retired_item_values')
        .select(['item_path', 'value', 'derived'])
        .where('subject_id', '=', subjects.changed)
        .execute();
      expect(retired).toEqual([{ item_path: 'measurementDate', value: '2025-03-04', derived: false }]);
      // The re-coded value's SDV mark is reset; the renamed one's history stays with it.
      const marks = await database()
        .db.selectFrom('sdv_marks')
        .select(['item_key', 'state'])
        .where('subject_id', '=', subjects.changed)
        .orderBy('item_key')
        .execute();
      expect(marks).toEqual([
        { item_key: 'heartRate', state: 'verified' },
        { item_key: 'result', state: 'changed' },
      ]);
      // Every change is audited with the amendment's number as the reason.
      const records = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'reason'])
        .where('subject_id', '=', subjects.changed)
        .where('reason', '=', 'AM-09')
        .execute();
      expect(records.map((record) => record.event_type)).toEqual(
        expect.arrayContaining(['subject.migrated', 'data.item_changed']),
      );
      // What the save's reactions wrote (the SDV mark reset) names the amendment by its actor.
      const reset = await database()
        .db.selectFrom('audit_events')
        .select('actor_label')
        .where('subject_id', '=', subjects.changed)
        .where('event_type', '=', 'sdv.reset')
        .executeTakeFirstOrThrow();
      expect(reset.actor_label).toBe('amendment-migration AM-09');
      const forms = await database()
        .db.selectFrom('form_instances')
        .select('definition_version')
        .where('subject_id', '=', subjects.changed)
        .execute();
      expect(new Set(forms.map((row) => row.definition_version))).toEqual(new Set(['2.0.0']));
    });

    it('gives a subject not yet migrated by its own version: exports either way, casebook, SDV, signature', async () => {
      // A subject at site 02, where the amendment is not in effect: entered under the live version.
      subjects.waiting = await register('crc', site2);
      expect(await versionOf(subjects.waiting)).toBe(live.version);
      await save(
        subjects.waiting,
        'vitalSigns',
        {
          measurementDate: '2025-03-05',
          bloodPressureSystolic: 118,
          bloodPressureDiastolic: 85,
          heartRate: 72,
          bodyTemperature: 36.6,
          result: 'abnormalNcs',
          opinion: 'Seated',
        },
        'crc',
      );
      const rowsOf = async (valuesAsOf: 'current' | 'entered') => {
        const scope = { studyId, formKeys: ['vitalSigns'] };
        const context = await loadTablesContext(database().db, { scope, valuesAsOf }, 500);
        const [table] = context.tables;
        if (!table) throw new Error('no vital signs table');
        const rows = new Map<number, Record<string, unknown>>();
        let read = 0;
        for await (const page of formTablePages(database().db, scope, table, context)) {
          read += page.values;
          for (const row of page.rows)
            if (row.visit === 'v1') rows.set(await subjectIdOf(row.subject), row.values);
        }
        // The progress total counts what the pages read.
        expect(await countFormTableValues(database().db, scope, { valuesAsOf })).toBe(read);
        return { columns: table.columns.map((column) => column.item.key), table, rows };
      };

      // As of the current version: one column means one thing for every subject.
      const current = await rowsOf('current');
      expect(current.columns).toEqual(expect.arrayContaining(['remark', 'position']));
      expect(current.columns).not.toContain('opinion');
      expect(current.columns).not.toContain('measurementDate');
      expect(current.rows.get(subjects.changed)).toMatchObject({ remark: 'Resting', result: 'ncs' });
      expect(current.rows.get(subjects.waiting)).toMatchObject({
        remark: 'Seated',
        result: 'ncs',
        bloodPressureDiastolic: 85,
      });
      expect(current.rows.get(subjects.waiting)).not.toHaveProperty('opinion');
      expect(current.rows.get(subjects.frozen)).toMatchObject({
        result: 'normal',
        bloodPressureDiastolic: 80,
      });

      // As entered: the re-coded value as it was before the migration, the retired one back in its
      // column, the unmigrated subject's values under its version's keys and codes.
      const entered = await rowsOf('entered');
      expect(entered.columns).toEqual(
        expect.arrayContaining(['remark', 'position', 'opinion', 'measurementDate']),
      );
      expect(entered.rows.get(subjects.changed)).toMatchObject({
        remark: 'Resting',
        result: 'abnormalNcs',
        measurementDate: '2025-03-04',
      });
      expect(entered.rows.get(subjects.waiting)).toMatchObject({
        opinion: 'Seated',
        result: 'abnormalNcs',
        measurementDate: '2025-03-05',
      });
      // The codebook knows the codes of both versions.
      const result = entered.table.columns.find((column) => column.item.key === 'result');
      expect(result?.codes?.map((code) => code.code)).toEqual(expect.arrayContaining(['ncs', 'abnormalNcs']));
      // ODM is in the current version's terms too (its audit trail holds what was entered), and its
      // progress total counts what it writes.
      const odm = await exportOdm(database().db, {
        studyId,
        formKeys: ['vitalSigns'],
        version: '1.3.2',
        audit: true,
      });
      let xml = '';
      for await (const chunk of odm.chunks) xml += chunk;
      expect(odm.counts.values).toBe(
        await countOdmValues(database().db, { studyId, formKeys: ['vitalSigns'] }),
      );
      // (1.3.2 describes every version in its metadata: the clinical data is read.)
      const clinical = xml.slice(xml.indexOf('<ClinicalData'));
      expect(clinical).toContain('ItemOID="I.vitalSigns.remark" Value="Seated"');
      expect(clinical).not.toContain('ItemOID="I.vitalSigns.opinion"');
      expect(clinical).not.toContain('Value="abnormalNcs"');
      // The change record of the moved value keeps what was entered, under the value's current item.
      expect(clinical).toMatch(/ItemOID="I\.vitalSigns\.result" Value="ncs"><AuditRecord>/);
      // A monitor verifies it against its own version: the item it entered, by the key it has.
      const verified = await call('cra', 'POST', `/api/studies/${studyId}/sdv/verify`, {
        subjectPk: subjects.waiting,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['opinion'],
      });
      expect(verified.statusCode, verified.body).toBeLessThan(300);
      // An investigator signs a subject still on the live version (held by its freeze): the signing
      // form is written under that version, and nothing of the subject moves.
      await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subjects.frozen}/signature`, {
        password: DEMO_PASSWORD,
      });
      expect(await versionOf(subjects.frozen)).toBe(live.version);
      const signedForms = await database()
        .db.selectFrom('form_instances')
        .select('definition_version')
        .where('subject_id', '=', subjects.frozen)
        .execute();
      expect(new Set(signedForms.map((row) => row.definition_version))).toEqual(new Set([live.version]));
      // Its casebook is laid out by its own version: the remark it entered prints under its item.
      const casebook = await call(
        'crc',
        'GET',
        `/api/studies/${studyId}/subjects/${subjects.waiting}/casebook.pdf?lang=en`,
      );
      expect(casebook.statusCode).toBe(200);
      expect(compactPdfText(casebook.rawPayload)).toContain('Seated');
      // The stored data did not move.
      expect(await versionOf(subjects.waiting)).toBe(live.version);
      expect((await formOf(subjects.changed, 'vitalSigns')).values.result).toBe('ncs');
    });

    it('moves the rest when the DM asks; a frozen form the amendment touches still waits', async () => {
      const started = await call('dm', 'POST', `${base()}/${amendmentId}/migrations`, { scope: 'study' });
      expect(started.statusCode).toBe(202);
      const again = await call('dm', 'POST', `${base()}/${amendmentId}/migrations`, { scope: 'study' });
      expect(again.json().error.code).toBe('migration_running');
      await runAllTurns();
      expect(await versionOf(subjects.elsewhere)).toBe('2.0.0');
      expect(await versionOf(subjects.frozen)).toBe(live.version);
      const [latest] = (
        (await as('dm', 'GET', `${base()}/${amendmentId}/migrations`)) as AmendmentMigrationsResponse
      ).migrations;
      expect(latest).toMatchObject({ scope: 'study', automatic: false, status: 'done', held: 1, failed: 0 });

      // Lifted, the hold lets the subject move with the next job, its frozen form's values with it.
      await as('dm', 'POST', `/api/studies/${studyId}/holds/lift`, {
        kind: 'frozen',
        target: { level: 'form', subjectPk: subjects.frozen, visitKey: 'v1', formKey: 'vitalSigns' },
        reason: 'Interim analysis done',
      });
      await as('dm', 'POST', `${base()}/${amendmentId}/migrations`, {
        scope: 'subject',
        subjectId: subjects.frozen,
      });
      await runAllTurns();
      expect(await versionOf(subjects.frozen)).toBe('2.0.0');
      const form = await formOf(subjects.frozen, 'vitalSigns');
      expect(form.values).toMatchObject({ bloodPressureDiastolic: 80, result: 'normal' });
      // The new required item is missing: the form is incomplete under the new version.
      const overview = await as('pi', 'GET', `/api/studies/${studyId}/subjects/${subjects.frozen}/overview`);
      expect(overview.definitionVersion).toBe('2.0.0');
      expect(overview.matrix.v1.vitalSigns).toBe('dash');
    });

    it('moves a subject on through a later amendment already in effect at its site', async () => {
      // AM-10, on top of AM-09: in effect at both sites since 2020.
      const sites = [
        { siteId: site1, effectiveOn: '2020-01-01' },
        { siteId: site2, effectiveOn: '2020-01-01' },
      ];
      const { id } = await as('dm', 'POST', base(), { number: 'AM-10', reason: 'Pulse range', sites });
      const draft = (await as('dm', 'GET', `/api/studies/${studyId}/design-draft`)).draft;
      const next = structuredClone(draft.definition) as StudyDefinition;
      itemOf(next, 'vitalSigns', 'heartRate').max = 120;
      await as('dm', 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: draft.revision,
        definition: { ...next, version: '2.1.0' },
      });
      await as('dm', 'POST', `${base()}/${id}/impact`);
      await as('dm', 'POST', `${base()}/${id}/publish`, { password: DEMO_PASSWORD });
      // A subject registered at site 02 now starts before AM-09 (not approved there), so AM-10's
      // automatic job at site 02 passes it by.
      const late = await register('crc', site2);
      expect(await versionOf(late)).toBe(live.version);
      await runAllTurns();
      expect(await versionOf(late)).toBe(live.version);
      expect(await versionOf(subjects.changed)).toBe('2.1.0');

      // Moved by AM-09 when the DM asks, it goes on through AM-10, approved at its site.
      await as('dm', 'POST', `${base()}/${amendmentId}/migrations`, { scope: 'subject', subjectId: late });
      await runAllTurns();
      expect(await versionOf(late)).toBe('2.1.0');
      const moves = await database()
        .db.selectFrom('audit_events')
        .select('reason')
        .where('subject_id', '=', late)
        .where('event_type', '=', 'subject.migrated')
        .orderBy('id')
        .execute();
      expect(moves.map((move) => move.reason)).toEqual(['AM-09', 'AM-10']);
    });
  },
  { seed: 'demo' },
);
