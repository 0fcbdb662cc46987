import fs from 'node:fs';
import path from 'node:path';
import {
  listOdmMetaDataVersions,
  readDefinitionWorkbook,
  readOdmMetadata,
  type StudyDefinition,
  writeDefinitionWorkbook,
  writeOdmMetadata,
} from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

const examples = path.resolve(import.meta.dirname, '../../../../docs/examples');
const dictionary = fs.readFileSync(path.join(examples, 'redcap-dictionary.csv'), 'utf8');
const eventMapping = fs.readFileSync(path.join(examples, 'redcap-event-mapping.csv'), 'utf8');
/** The example without its one refused field (an sql field), so that it can be imported. */
const importable = dictionary
  .split('\n')
  .filter((line) => !line.startsWith('site_lookup,'))
  .join('\n');

describeWithDatabase(
  'study design: a REDCap dictionary imported through a preview (issue 47 item 5)',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let crc: SignedIn;
    let studyId: number;

    const post = (who: SignedIn, url: string, payload: object, language: 'ko' | 'en' = 'en') =>
      app.inject({ method: 'POST', url, headers: { ...who.headers, 'accept-language': language }, payload });
    const preview = (file: string, language: 'ko' | 'en' = 'en') =>
      post(
        admin,
        `/api/studies/${studyId}/definition-imports/preview`,
        {
          format: 'redcapDictionary',
          file,
          eventMapping,
          language: 'en',
        },
        language,
      );

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      crc = await signIn(app, 'crc@demo.cdms');
      const created = await post(admin, '/api/admin/studies', {
        code: 'EAR-2028',
        protocolNumber: 'CDMS-EAR-01',
        titleKo: '청력 연구',
        titleEn: 'Hearing study',
        sponsor: '',
        kind: 'observational',
        content: '',
      });
      expect(created.statusCode).toBe(201);
      studyId = created.json().id;
    });
    afterAll(async () => {
      await app.close();
    });

    it('previews a dictionary with an error: counts, changes and problems by line, nothing written', async () => {
      const answer = await preview(dictionary, 'ko');
      expect(answer.statusCode).toBe(200);
      const body = answer.json();
      expect(body.importable).toBe(false);
      expect(body.counts).toMatchObject({ visits: 3, forms: 2, codeLists: 4 });
      expect(body.changes.forms.added).toEqual(['enrollment', 'audiometry']);
      expect(body.problems.filter((problem: { severity: string }) => problem.severity === 'error')).toEqual([
        expect.objectContaining({ line: 28, column: 'Field Type', field: 'site_lookup' }),
      ]);
      expect(body.problems[0].message.ko).toMatch(/레코드 ID/);
      const definitions = await database()
        .db.selectFrom('study_definitions')
        .select('id')
        .where('study_id', '=', studyId)
        .execute();
      expect(definitions).toEqual([]);
      const refused = await post(admin, `/api/studies/${studyId}/definition-imports`, {
        format: 'redcapDictionary',
        file: dictionary,
        eventMapping,
        language: 'en',
        contentHash: '0'.repeat(64),
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toMatchObject({ code: 'invalid_definition_import' });
    });

    it('imports what the preview showed, and refuses a confirmation of something else', async () => {
      const shown = (await preview(importable)).json();
      expect(shown.importable).toBe(true);
      const changed = await post(admin, `/api/studies/${studyId}/definition-imports`, {
        format: 'redcapDictionary',
        file: importable.replace('Date of informed consent', 'Consent date'),
        eventMapping,
        language: 'en',
        contentHash: shown.contentHash,
      });
      expect(changed.statusCode).toBe(409);
      expect(changed.json().error.code).toBe('definition_import_changed');
      const confirmed = await post(admin, `/api/studies/${studyId}/definition-imports`, {
        format: 'redcapDictionary',
        file: importable,
        eventMapping,
        language: 'en',
        contentHash: shown.contentHash,
      });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toEqual({ version: '1.0.0', contentHash: shown.contentHash });
      const definition = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/definition`,
        headers: admin.headers,
      });
      expect(definition.json().definition.forms.map((form: { key: string }) => form.key)).toEqual([
        'enrollment',
        'audiometry',
      ]);
    });

    it('shows what a second import would remove from the current version', async () => {
      const smaller = importable
        .split('\n')
        .filter((line) => !line.startsWith('comments,') && !line.startsWith('bmi,'))
        .join('\n');
      const body = (await preview(smaller)).json();
      expect(body.changes.items.removed).toEqual(['audiometry.bmi', 'audiometry.comments']);
      expect(body.changes.items.added).toEqual([]);
    });

    it('reads a definition document of another study as this one, and says so', async () => {
      const current = (
        await app.inject({ method: 'GET', url: `/api/studies/${studyId}/definition`, headers: admin.headers })
      ).json().definition as StudyDefinition;
      const body = (
        await post(admin, `/api/studies/${studyId}/definition-imports/preview`, {
          format: 'definitionJson',
          file: JSON.stringify({ ...current, key: 'anotherStudy' }),
          language: 'en',
        })
      ).json();
      expect(body.importable).toBe(true);
      expect(body.changes.items).toEqual({ added: [], removed: [], changed: [] });
      expect(body.problems).toEqual([
        expect.objectContaining({
          severity: 'note',
          message: expect.objectContaining({ en: expect.stringMatching(/anotherStudy/) }),
        }),
      ]);
    });

    it('takes its own design back as ODM metadata and as a workbook with nothing to change', async () => {
      const current = (
        await app.inject({ method: 'GET', url: `/api/studies/${studyId}/definition`, headers: admin.headers })
      ).json().definition as StudyDefinition;
      const files = [
        { format: 'odmMetadata', file: writeOdmMetadata(current) },
        { format: 'workbook', file: Buffer.from(writeDefinitionWorkbook(current)).toString('base64') },
      ];
      for (const file of files) {
        const body = (
          await post(admin, `/api/studies/${studyId}/definition-imports/preview`, { ...file, language: 'en' })
        ).json();
        expect(body, file.format).toMatchObject({ importable: true, canConfirm: true });
        expect(body.changes, file.format).toEqual({
          visits: { added: [], removed: [] },
          forms: { added: [], removed: [] },
          codeLists: { added: [], removed: [], changed: [] },
          items: { added: [], removed: [], changed: [] },
        });
        expect(body.differences, file.format).toEqual([]);
      }
    });

    it("lists every difference the keys do not show, in the user's language: a window the file drops", async () => {
      const current = (
        await app.inject({ method: 'GET', url: `/api/studies/${studyId}/definition`, headers: admin.headers })
      ).json().definition as StudyDefinition;
      const [first, second, ...rest] = current.visits;
      if (!first || !second) throw new Error('the imported design has fewer than two visits');
      const timed = {
        ...current,
        visits: [
          first,
          { ...second, window: { anchorVisit: first.key, offsetDays: 7, minusDays: 1, plusDays: 2 } },
          ...rest,
        ],
      };
      const put = (definition: StudyDefinition) =>
        app.inject({
          method: 'PUT',
          url: `/api/studies/${studyId}/definition`,
          headers: admin.headers,
          payload: definition,
        });
      expect((await put(timed)).statusCode).toBe(200);
      const body = (
        await post(
          admin,
          `/api/studies/${studyId}/definition-imports/preview`,
          { format: 'definitionJson', file: JSON.stringify(current), language: 'en' },
          'ko',
        )
      ).json();
      // The keys are the same: only the lines say that the window goes.
      expect(body.changes.visits).toEqual({ added: [], removed: [] });
      expect(body.differences).toEqual([
        expect.objectContaining({ kind: 'changed', path: expect.stringContaining(`visits/${second.key}`) }),
      ]);
      expect(body.differences[0].text).toMatch(/방문 허용 기간.*→ —/);
      expect((await put(current)).statusCode).toBe(200);
    });

    it('gives every version of the design as one ODM file that the import reads back', async () => {
      const current = (
        await app.inject({ method: 'GET', url: `/api/studies/${studyId}/definition`, headers: admin.headers })
      ).json();
      const answer = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/definition-versions/odm`,
        headers: crc.headers,
      });
      // A member of the study reads its design; the CRC of the demo is not one of this new study's.
      expect(answer.statusCode).toBe(404);
      const file = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/definition-versions/odm`,
        headers: admin.headers,
      });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toMatch(/^application\/xml/);
      expect(file.headers['content-disposition']).toBe(
        'attachment; filename="EAR-2028-definition-versions-odm.xml"',
      );
      expect(listOdmMetaDataVersions(file.body)).toEqual([
        expect.objectContaining({ oid: `MDV.${current.version}` }),
      ]);
      const read = readOdmMetadata(file.body, {
        studyKey: current.definition.key,
        studyLabel: current.definition.label,
        language: 'en',
      });
      expect(read.definition).toEqual(current.definition);
    });

    it('refuses a file that is no design at all with 422 and its problems, in every format', async () => {
      const billionLaughs =
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><ODM>&lol2;</ODM>';
      const externalEntity =
        '<?xml version="1.0"?><!DOCTYPE ODM [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><ODM>&xxe;</ODM>';
      const unreadable = [
        { format: 'odmMetadata', file: 'this is not XML' },
        { format: 'odmMetadata', file: billionLaughs },
        { format: 'odmMetadata', file: externalEntity },
        { format: 'workbook', file: 'not base64 at all!' },
        { format: 'workbook', file: Buffer.from('a text, not a zip').toString('base64') },
        { format: 'definitionJson', file: '{"key": ' },
        { format: 'redcapDictionary', file: 'only,a,header\n' },
      ];
      for (const file of unreadable) {
        const answer = await post(
          admin,
          `/api/studies/${studyId}/definition-imports/preview`,
          {
            ...file,
            language: 'en',
          },
          'ko',
        );
        expect(answer.statusCode, `${file.format}: ${file.file.slice(0, 40)}`).toBe(422);
        const { error } = answer.json();
        expect(error.code).toBe('unreadable_definition_file');
        expect(error.message).toMatch(/설계로 읽을 수 없습니다/);
        expect(error.details.problems.length).toBeGreaterThan(0);
        expect(JSON.stringify(error.details)).not.toMatch(/root:/);
      }
    });

    it('reads every definition version of the living demo back from its own ODM metadata and workbook', async () => {
      const versions = await database().db.selectFrom('study_definitions').select(['definition']).execute();
      expect(versions.length).toBeGreaterThanOrEqual(2);
      for (const version of versions) {
        const definition = version.definition as StudyDefinition;
        const options = { studyKey: definition.key, studyLabel: definition.label, language: 'ko' as const };
        const fromOdm = readOdmMetadata(writeOdmMetadata(definition), options);
        expect(
          fromOdm.problems.filter((problem) => problem.severity === 'error'),
          definition.key,
        ).toEqual([]);
        expect(fromOdm.definition, definition.key).toEqual(definition);
        const fromWorkbook = readDefinitionWorkbook(writeDefinitionWorkbook(definition), options);
        expect(
          fromWorkbook.problems.filter((problem) => problem.severity === 'error'),
          definition.key,
        ).toEqual([]);
        expect(fromWorkbook.definition, definition.key).toEqual(definition);
      }
    });

    it('hides a study in design from anyone but its designers', async () => {
      const answer = await post(crc, `/api/studies/${studyId}/definition-imports/preview`, {
        format: 'redcapDictionary',
        file: importable,
        language: 'en',
      });
      expect(answer.statusCode).toBe(404);
    });
  },
  { seed: 'demo' },
);
