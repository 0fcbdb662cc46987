import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SubjectStatus } from '@cdms/contract';
import { getFormLayout, readOdmMetadata, type StudyDefinition, xmlSafeText } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from '../audit/audit-events.ts';
import { loadSubjectData } from '../data-entry/form-data.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { countOdmValues } from './count-odm-values.ts';
import { exportOdm, type OdmVersion } from './export-odm.ts';
import { exportOdmToFile } from './export-odm-to-file.ts';
import { type OdmRead, readOdm } from './read-odm.ts';
import { odmSchemas, validateOdmFile as validate } from './validate-odm.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-odm-'));

/** `subject|visit|form|group[repeat]|item = values` for every value of a read document. */
function flatten(read: OdmRead): string[] {
  const lines: string[] = [];
  for (const [subjectKey, subject] of read.subjects) {
    for (const [visitKey, forms] of Object.entries(subject.visits)) {
      for (const [formKey, groups] of Object.entries(forms)) {
        for (const [groupKey, items] of Object.entries(groups)) {
          for (const [itemKey, item] of Object.entries(items))
            lines.push(
              `${subjectKey}|${visitKey}|${formKey}|${groupKey}|${itemKey}=${item.values.join(',')}`,
            );
        }
      }
    }
  }
  return lines.sort();
}

/** The test's own reading of a stored value as ODM text (independent of the writer's code). */
function expectedText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // ODM times are xs:time, with seconds.
  if (typeof value === 'string' && /^\d{2}:\d{2}$/.test(value)) return `${value}:00`;
  if (Array.isArray(value)) return value.map(expectedText).join(',');
  return xmlSafeText(String(value));
}

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describeWithDatabase(
  'ODM export',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    let definition: StudyDefinition;
    const session: Record<string, SignedIn> = {};
    const subjects: Record<'signed' | 'invalidated' | 'otherSite', { id: number; key: string }> = {
      signed: { id: 0, key: '' },
      invalidated: { id: 0, key: '' },
      otherSite: { id: 0, key: '' },
    };
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const formUrl = (subjectId: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;

    async function newSubject(who: string, siteId: number, initials: string) {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials,
      });
      expect(created.statusCode, created.body).toBe(201);
      const subject = created.json();
      return { id: subject.id as number, key: subject.subjectId as string };
    }

    async function save(
      who: string,
      subjectId: number,
      visit: string,
      form: string,
      values: object,
      reasons = {},
    ) {
      const current = (await as(who, 'GET', formUrl(subjectId, visit, form))).json();
      const saved = await as(who, 'PUT', formUrl(subjectId, visit, form), {
        values: { ...current.values, ...values },
        version: current.version,
        reasons,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    async function exportText(
      version: OdmVersion,
      options: {
        audit?: boolean;
        siteId?: number;
        statuses?: SubjectStatus[];
        formKeys?: string[];
        batchSize?: number;
      } = {},
    ) {
      const exported = await exportOdm(database().db, {
        studyId,
        version,
        audit: options.audit ?? true,
        ...(options.siteId !== undefined ? { siteIds: [options.siteId] } : {}),
        ...(options.statuses !== undefined ? { statuses: options.statuses } : {}),
        ...(options.formKeys !== undefined ? { formKeys: options.formKeys } : {}),
        batchSize: options.batchSize ?? 2,
      });
      let text = '';
      for await (const chunk of exported.chunks) text += chunk;
      return { text, counts: exported.counts };
    }

    function writeAndValidate(text: string, version: OdmVersion, name: string) {
      const file = path.join(workDir, name);
      fs.writeFileSync(file, text);
      if (process.env.ODM_KEEP_EXPORTS) fs.copyFileSync(file, path.join(process.env.ODM_KEEP_EXPORTS, name));
      return validate(file, version);
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      const siteOf = async (number: string) =>
        (
          await db
            .selectFrom('sites')
            .select('id')
            .where('study_id', '=', studyId)
            .where('institution_number', '=', number)
            .executeTakeFirstOrThrow()
        ).id;
      site1 = await siteOf('01');
      site2 = await siteOf('02');
      definition = (await currentStudyDefinition(db, studyId))?.definition as StudyDefinition;
      // Site 01: the SI enters, the PI signs; site 02: the CRC enters; the CRA monitors both.
      for (const who of ['pi', 'si', 'crc', 'cra']) session[who] = await signIn(app, `${who}@demo.cdms`);

      // A subject with plain items, derived values, units and decimals, a repeating group, changes
      // with reasons (one holding markup and a character XML cannot carry), a query thread, and a signature.
      subjects.signed = await newSubject('si', site1, 'ODM');
      const id = subjects.signed.id;
      await save('si', id, 'v1', 'demographicInfo', { birthDate: '1980-05-06', gender: 'F' });
      await save('si', id, 'v1', 'demographicInfo', { gender: 'M' }, { gender: 'Source says <male> & "M"' });
      await save('si', id, 'v1', 'bodyMeasurement', {
        measurementDate: '2025-03-03',
        height: 170.5,
        weight: 65.2,
      });
      await save('si', id, 'v1', 'medicalHistory', {
        histories: [
          { content: 'Hypertension & "asthma" <b>', startDate: '2020-01-01', ongoing: true },
          { content: 'Otitis media', startDate: '2019-02-02' },
        ],
      });
      await save(
        'si',
        id,
        'v1',
        'medicalHistory',
        {
          histories: [
            { content: 'Hypertension & "asthma" <b>', startDate: '2020-01-01', ongoing: true },
            { content: 'Chronic otitis media\u0007', startDate: '2019-02-02' },
          ],
        },
        { histories: 'Transcription error in row 2' },
      );
      await save('si', id, 'all', 'adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [{ name: 'Otalgia', startDate: '2025-03-05', startTime: '14:30', serious: 'N' }],
      });
      const raised = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: id,
        visitKey: 'v1',
        formKey: 'demographicInfo',
        itemPath: 'v1.demographicInfo.gender',
        text: '성별을 원자료와 대조해 주십시오.',
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const answered = await as('si', 'POST', `/api/studies/${studyId}/queries/${raised.json().id}/answer`, {
        text: '진료기록 확인: 남성이 맞습니다.',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      const signed = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${id}/signature`, {
        password: DEMO_PASSWORD,
      });
      expect(signed.statusCode, signed.body).toBe(201);

      // Signed, then changed: the signature is invalidated.
      subjects.invalidated = await newSubject('si', site1, 'INV');
      await save('si', subjects.invalidated.id, 'v1', 'demographicInfo', {
        birthDate: '1975-01-02',
        gender: 'F',
      });
      const signedToo = await as(
        'pi',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.invalidated.id}/signature`,
        {
          password: DEMO_PASSWORD,
        },
      );
      expect(signedToo.statusCode, signedToo.body).toBe(201);
      await save(
        'si',
        subjects.invalidated.id,
        'v1',
        'demographicInfo',
        { gender: 'M' },
        { gender: 'Wrong box ticked' },
      );

      subjects.otherSite = await newSubject('crc', site2, 'OTH');
      await save('crc', subjects.otherSite.id, 'v1', 'demographicInfo', {
        birthDate: '1990-09-09',
        gender: 'F',
      });
      // An unscheduled visit (issue 19) with vital signs: event SE.unscheduled, repeat key 1.
      const unscheduled = await as(
        'crc',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.otherSite.id}/unscheduled-visits`,
        { visitDate: '2025-03-20', reason: 'Otalgia' },
      );
      expect(unscheduled.statusCode, unscheduled.body).toBe(201);
      await save('crc', subjects.otherSite.id, 'unscheduled-1', 'vitalSigns', {
        bloodPressureSystolic: 121,
        bloodPressureDiastolic: 79,
        heartRate: 72,
        bodyTemperature: 36.7,
        result: 'normal',
      });
    }, 180_000);

    afterAll(async () => {
      await app.close();
    });

    it('has a validator that refuses an invalid document (the sample marked invalid, an element out of order)', async () => {
      expect(
        validate(path.join(odmSchemas, 'samples-1.3.2', 'cdash-odm-test-invalid.xml'), '1.3.2').status,
      ).not.toBe(0);
      const { text } = await exportText('1.3.2');
      // AdminData before Study breaks the schema's order.
      const study = text.slice(text.indexOf('<Study '), text.indexOf('</Study>') + '</Study>'.length);
      const reordered = text.replace(study, '').replace('</AdminData>', `</AdminData>${study}`);
      expect(writeAndValidate(reordered, '1.3.2', 'reordered.xml').status).not.toBe(0);
    });

    it('writes ODM 1.3.2 that the official schema validates', async () => {
      const { text, counts } = await exportText('1.3.2');
      const verdict = writeAndValidate(text, '1.3.2', 'export-132.xml');
      expect(verdict.output).toContain('validates');
      expect(verdict.status).toBe(0);
      expect(counts.subjects).toBe(3);
      // The metadata: readable OIDs, both languages, units, ranges, code lists.
      expect(text).toContain('<StudyEventDef OID="SE.v1" Name="v1" Repeating="No" Type="Scheduled"');
      // The unscheduled visits: one repeating event, each visit's data under its repeat key.
      expect(text).toContain(
        '<StudyEventDef OID="SE.unscheduled" Name="unscheduled" Repeating="Yes" Type="Unscheduled">',
      );
      expect(text).toContain('<StudyEventData StudyEventOID="SE.unscheduled" StudyEventRepeatKey="1">');
      expect(text).toContain(
        '<ItemGroupDef OID="IG.medicalHistory.histories" Name="medicalHistory.histories" Repeating="Yes">',
      );
      expect(text).toContain(
        '<ItemDef OID="I.bodyMeasurement.height" Name="height" DataType="float" SignificantDigits="1">',
      );
      expect(text).toContain('<MeasurementUnitRef MeasurementUnitOID="MU.cm"/>');
      // Height's hard limit and soft range (docs/CLINICAL-RANGES.md), in that order.
      expect(text).toContain(
        '<RangeCheck Comparator="GE" SoftHard="Hard"><CheckValue>100</CheckValue><cdms:Bound Name="hardMin"/></RangeCheck><RangeCheck Comparator="GE" SoftHard="Soft"><CheckValue>140</CheckValue><cdms:Bound Name="min"/></RangeCheck>',
      );
      expect(text).toMatch(
        /<CodeList OID="CL\.gender" Name="gender" DataType="text">.*xml:lang="ko".*xml:lang="en"/,
      );
      expect(text).toContain('<Location OID="LOC.');
    });

    it('carries the complete design in 1.3.2: the design import reads the study back from a data export', async () => {
      const { text } = await exportText('1.3.2');
      // Show-when, derivations and the extension, as the design's own metadata export writes them.
      expect(text).toContain('<ConditionDef ');
      expect(text).toContain('<MethodDef ');
      expect(text).toContain('<cdms:Definition ');
      const read = readOdmMetadata(text, {
        studyKey: definition.key,
        studyLabel: definition.label,
        language: 'en',
      });
      expect(read.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(read.definition).toEqual(definition);
      // The ClinicalData refer only to events, forms, groups and items their MetaDataVersion defines.
      const clinicalData = text.slice(text.indexOf('<ClinicalData '));
      const versionOid = /MetaDataVersionOID="([^"]+)"/.exec(clinicalData)?.[1];
      const start = text.indexOf(`<MetaDataVersion OID="${versionOid}"`);
      expect(start).toBeGreaterThan(0);
      const metaDataVersion = text.slice(start, text.indexOf('</MetaDataVersion>', start));
      const defined = new Set(
        [...metaDataVersion.matchAll(/<(?:StudyEventDef|FormDef|ItemGroupDef|ItemDef) OID="([^"]+)"/g)].map(
          (match) => match[1],
        ),
      );
      const referred = new Set(
        [...clinicalData.matchAll(/(?:StudyEventOID|FormOID|ItemGroupOID|ItemOID)="([^"]+)"/g)].map(
          (match) => match[1],
        ),
      );
      expect(referred.size).toBeGreaterThan(10);
      expect([...referred].filter((oid) => !defined.has(oid))).toEqual([]);
    });

    it('gives back every stored value from the 1.3.2 and the 2.0 document, in place', async () => {
      const db = database().db;
      const expected: string[] = [];
      for (const subject of Object.values(subjects)) {
        const stored = await loadSubjectData(db, subject.id);
        for (const data of [stored.entered, stored.derived]) {
          for (const [visitKey, forms] of Object.entries(data)) {
            for (const [formKey, values] of Object.entries(forms ?? {})) {
              const layout = getFormLayout(definition, visitKey, formKey);
              for (const [key, value] of Object.entries(values ?? {})) {
                const group = layout?.groups.get(key);
                if (group && Array.isArray(value)) {
                  value.forEach((row, index) => {
                    for (const [column, cell] of Object.entries(row as Record<string, unknown>)) {
                      if (cell === null || cell === '') continue;
                      expected.push(
                        `${subject.key}|${visitKey}|${formKey}|${group.key}[${index + 1}]|${column}=${expectedText(cell)}`,
                      );
                    }
                  });
                } else {
                  const section = layout?.items.get(key)?.section.key;
                  expected.push(
                    `${subject.key}|${visitKey}|${formKey}|${section}|${key}=${expectedText(value)}`,
                  );
                }
              }
            }
          }
        }
      }
      expected.sort();
      // The fixture is what the test thinks it is: the row, the derived values, the signing form.
      expect(expected).toContain(
        `${subjects.signed.key}|v1|medicalHistory|histories[2]|content=Chronic otitis media\uFFFD`,
      );
      expect(expected).toContain(`${subjects.signed.key}|v1|bodyMeasurement|body|bmi=22.4`);
      expect(expected).toContain(`${subjects.signed.key}|all|adverseEvent|events[1]|startTime=14:30:00`);
      expect(expected).toContain(`${subjects.signed.key}|all|adverseEvent|gate|hasAdverseEvent=Y`);
      expect(expected).toContain(`${subjects.signed.key}|v1|demographicInfo|demographics|age=44`);
      expect(expected.some((line) => line.includes('|all|testDirectorSigning|'))).toBe(true);
      expect(expected).toContain(`${subjects.otherSite.key}|unscheduled-1|vitalSigns|vitals|heartRate=72`);

      for (const version of ['1.3.2', '2.0'] as const) {
        const { text, counts } = await exportText(version);
        const read = readOdm(text);
        expect(read.odmVersion).toBe(version);
        expect(flatten(read)).toEqual(expected);
        expect(counts.values).toBe(expected.length);
      }
    });

    it('puts on each value the audit record of its last change: user, site, UTC time and reason', async () => {
      const read = readOdm((await exportText('1.3.2')).text);
      const subject = read.subjects.get(subjects.signed.key);
      const siOid = `U.${session.si?.userId}`;
      const gender = subject?.visits.v1?.demographicInfo?.demographics?.gender;
      expect(gender?.values).toEqual(['M']);
      expect(gender?.audit).toMatchObject({ userOid: siOid, reason: 'Source says <male> & "M"' });
      expect(gender?.audit?.locationOid).toBe(subject?.locationOid);
      expect(gender?.audit?.dateTimeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      // In a repeating group the record is the last change of that cell: row 2 was corrected, row 1 not.
      const rows = subject?.visits.v1?.medicalHistory;
      expect(rows?.['histories[2]']?.content?.audit?.reason).toBe('Transcription error in row 2');
      expect(rows?.['histories[1]']?.content?.audit).toMatchObject({ userOid: siOid });
      expect(rows?.['histories[1]']?.content?.audit?.reason).toBeUndefined();
      // A derived value has no change record: the system and the time it was stored.
      expect(subject?.visits.v1?.bodyMeasurement?.body?.bmi?.audit?.userOid).toBe('U.SYSTEM');
      // Every user referred to is described in AdminData.
      const users = new Set(read.users.map((user) => user.oid));
      expect(users.has(siOid)).toBe(true);
      expect(users.has('U.SYSTEM')).toBe(true);

      const withoutAudit = readOdm((await exportText('1.3.2', { audit: false })).text);
      expect(
        withoutAudit.subjects.get(subjects.signed.key)?.visits.v1?.demographicInfo?.demographics?.gender
          ?.audit,
      ).toBeUndefined();
    });

    it('counts beforehand the ItemData it writes: repeating rows, empty values and scopes alike', async () => {
      const db = database().db;
      const scopes = [
        {},
        { siteIds: [site2] },
        { formKeys: ['medicalHistory', 'vitalSigns'] },
        { statuses: ['screening'] as SubjectStatus[] },
      ];
      for (const version of ['1.3.2', '2.0'] as const)
        for (const scope of scopes) {
          const exported = await exportOdm(db, { studyId, version, audit: false, ...scope });
          let text = '';
          for await (const chunk of exported.chunks) text += chunk;
          const itemData = text.match(/<ItemData[\s>]/g)?.length ?? 0;
          expect(exported.counts.values, JSON.stringify(scope)).toBe(itemData);
          expect(await countOdmValues(db, { studyId, ...scope }), JSON.stringify(scope)).toBe(itemData);
        }
      // The stored rows are fewer: a repeating section's rows are one stored value.
      const storedRows = Number(
        (
          await db
            .selectFrom('item_values')
            .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
            .innerJoin('subjects', 'subjects.id', 'form_instances.subject_id')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('subjects.study_id', '=', studyId)
            .where('form_instances.has_data', '=', true)
            .where('subjects.deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).count,
      );
      expect(await countOdmValues(db, { studyId })).not.toBe(storedRows);
    });

    it('names each user with the given and family names importers read, family name first in Korean, valid in both versions', async () => {
      const db = database().db;
      const si = await db
        .selectFrom('users')
        .select('name')
        .where('id', '=', session.si?.userId ?? 0)
        .executeTakeFirstOrThrow();
      for (const version of ['1.3.2', '2.0'] as const) {
        const { text } = await exportText(version);
        expect(writeAndValidate(text, version, `users-${version}.xml`).status).toBe(0);
        const [given, family] = version === '2.0' ? ['GivenName', 'FamilyName'] : ['FirstName', 'LastName'];
        expect(text).toContain(`<${given}>`);
        expect(text).toContain(`<${family}>`);
        const read = readOdm(text);
        for (const user of read.users) {
          expect(user.givenName, user.oid).toBeDefined();
          expect(user.familyName, user.oid).toBeDefined();
        }
        const siUser = read.users.find((user) => user.oid === `U.${session.si?.userId}`);
        // The demo's SI is 이부연: family name 이, given name 부연.
        expect(si.name).toBe('이부연');
        expect(siUser).toMatchObject({ fullName: '이부연', familyName: '이', givenName: '부연' });
        expect(read.users.find((user) => user.oid === 'U.SYSTEM')).toMatchObject({
          givenName: 'CDMS',
          familyName: 'system',
        });
      }
    });

    it('carries the signature in force with its definition, and none once it was invalidated', async () => {
      for (const version of ['1.3.2', '2.0'] as const) {
        const read = readOdm((await exportText(version)).text);
        const signature = read.subjects.get(subjects.signed.key)?.signature;
        expect(signature).toMatchObject({
          userOid: `U.${session.pi?.userId}`,
          signatureOid: 'SD.CASEBOOK.1',
        });
        expect(signature?.dateTimeStamp).toMatch(/Z$/);
        expect(read.signatureDefs).toHaveLength(1);
        expect(read.signatureDefs[0]?.meaning.length).toBeGreaterThan(10);
        expect(read.subjects.get(subjects.invalidated.key)?.signature).toBeUndefined();
        expect(
          read.subjects.get(subjects.invalidated.key)?.visits.v1?.demographicInfo?.demographics?.gender
            ?.values,
        ).toEqual(['M']);
      }
    });

    it('writes ODM 2.0 that its schema validates, with each query and its thread on the value', async () => {
      const { text, counts } = await exportText('2.0');
      const verdict = writeAndValidate(text, '2.0', 'export-20.xml');
      expect(verdict.output).toContain('validates');
      expect(verdict.status).toBe(0);
      expect(text).toContain('xmlns="http://www.cdisc.org/ns/odm/v2.0"');
      expect(text).toContain(
        '<ItemGroupDef OID="F.demographicInfo" Name="demographicInfo" Repeating="No" Type="Form">',
      );

      const read = readOdm(text);
      const queries = read.subjects.get(subjects.signed.key)?.queries ?? [];
      const manual = queries.find((query) => query.target === 'v1.demographicInfo.gender');
      expect(manual).toMatchObject({
        state: 'Answered',
        source: 'Site Monitor',
        type: 'Manual',
        text: '성별을 원자료와 대조해 주십시오.',
        placedOn: 'v1.demographicInfo.demographics.gender',
      });
      expect(manual?.thread.map((message) => message.reason)).toEqual([
        '[opened] 성별을 원자료와 대조해 주십시오.',
        '[answer] 진료기록 확인: 남성이 맞습니다.',
      ]);
      expect(manual?.thread[0]?.userOid).toBe(`U.${session.cra?.userId}`);
      expect(manual?.thread[1]?.userOid).toBe(`U.${session.si?.userId}`);
      expect(counts.queries).toBeGreaterThanOrEqual(1);
      // 1.3.2 has no element for queries: none there.
      expect((await exportText('1.3.2')).text).not.toContain('<Query');
    });

    it('exports one site when asked, and does not depend on the batch size', async () => {
      const site = readOdm((await exportText('1.3.2', { siteId: site2 })).text);
      expect([...site.subjects.keys()]).toEqual([subjects.otherSite.key]);
      expect(site.locations).toHaveLength(1);
      const oneByOne = flatten(readOdm((await exportText('2.0', { batchSize: 1 })).text));
      const allAtOnce = flatten(readOdm((await exportText('2.0', { batchSize: 500 })).text));
      expect(oneByOne).toEqual(allAtOnce);
    });

    it('exports only the subjects in the statuses asked for, and only the forms asked for', async () => {
      const statuses = await database()
        .db.selectFrom('subjects')
        .select(['screening_number', 'status'])
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .execute();
      // The subjects of one status present, and a status no subject has.
      const present = statuses[0]?.status as SubjectStatus;
      const absent = (['screening', 'screening_failure', 'ongoing', 'complete', 'dropout'] as const).find(
        (status) => !statuses.some((row) => row.status === status),
      ) as SubjectStatus;
      const expected = statuses.filter((row) => row.status === present).map((row) => row.screening_number);
      const filtered = readOdm((await exportText('1.3.2', { statuses: [present] })).text);
      expect([...filtered.subjects.keys()].sort()).toEqual(expected.sort());
      expect((await exportText('1.3.2', { statuses: [absent] })).counts).toMatchObject({ subjects: 0 });
      const none = await exportText('1.3.2', { statuses: [] });
      expect(none.counts).toMatchObject({ subjects: 0, values: 0 });

      const everything = flatten(readOdm((await exportText('2.0')).text));
      const vitals = await exportText('2.0', { formKeys: ['bodyMeasurement'], audit: true });
      const vitalLines = flatten(readOdm(vitals.text));
      expect(vitalLines.length).toBeGreaterThan(0);
      expect(vitalLines).toEqual(everything.filter((line) => line.split('|')[2] === 'bodyMeasurement'));
      expect(vitals.counts.values).toBeLessThan((await exportText('2.0')).counts.values);
      writeAndValidate(vitals.text, '2.0', 'vitals-only.xml');
    });

    it('streams the export to a file and audits it with the counts (the CLI command)', async () => {
      const out = path.join(workDir, 'cli-export.xml');
      const result = await exportOdmToFile(database().db, systemActor('cli'), {
        study: 'TMP-2026',
        out,
        version: '1.3.2',
        audit: true,
      });
      expect(result).toMatchObject({ studyCode: 'TMP-2026', subjects: 3 });
      expect(fs.existsSync(`${out}.partial`)).toBe(false);
      expect(validate(out, '1.3.2').status).toBe(0);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['actor_label', 'after', 'study_id'])
        .where('event_type', '=', 'odm.exported')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({
        actor_label: 'cli',
        study_id: studyId,
        after: { format: 'ODM 1.3.2', subjects: 3, values: result.values, withAudit: true },
      });
      await expect(
        exportOdmToFile(database().db, systemActor('cli'), {
          study: 'NO-SUCH',
          out,
          version: '2.0',
          audit: false,
        }),
      ).rejects.toThrow('There is no study NO-SUCH');
    });
  },
  { seed: 'demo' },
);
