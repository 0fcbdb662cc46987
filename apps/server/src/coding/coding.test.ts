import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { fictionalDictionaryFolder, fictionalDistribution } from '../seed/demo-coding.ts';

/** A fictional distribution zipped as a sponsor would upload it. */
function zipOf(folder: string): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, text] of fictionalDistribution(folder)) entries[`${folder}/${name}`] = strToU8(text);
  return Buffer.from(zipSync(entries));
}

function multipart(fileName: string, bytes: Buffer, field = 'upload') {
  const boundary = '----cdms-coding-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

interface Assignment {
  id: number;
  status: string;
  verbatim: string;
  version: number;
  kind: string;
  itemPath: string;
  path: null | {
    kind: string;
    llt?: { code: string };
    pt?: { code: string };
    soc?: { code: string; name: { ko: string } };
    atc?: Array<{ code: string }>;
  };
}

/** Issue 51 item 2 through the API: loading, auto-coding on save, the queue, coding, queries, upgrades. */
describeWithDatabase(
  'medical coding API',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let subject: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const upload = (who: string, query: string, fileName: string, bytes: Buffer) => {
      const body = multipart(fileName, bytes);
      return app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/coding/dictionaries?${query}`,
        headers: { ...(session[who]?.headers ?? {}), ...body.headers, 'accept-language': 'en' },
        payload: body.payload,
      });
    };
    const base = () => `/api/studies/${studyId}/coding`;
    const queue = async (query = '') => {
      const answer = await as('coder', 'GET', `${base()}/queue?size=100${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as { items: Assignment[]; total: number; counts: Record<string, number> };
    };
    const formVersions = new Map<string, number>();
    async function save(form: string, values: object) {
      const url = `/api/studies/${studyId}/subjects/${subject}/forms/all/${form}`;
      const saved = await as('pi', 'PUT', url, {
        values,
        version: formVersions.get(form) ?? 0,
        ...(formVersions.has(form) ? { reasons: { [Object.keys(values)[1] ?? '']: '코딩 시험' } } : {}),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      formVersions.set(form, saved.json().version);
    }
    const event = (name: string) => ({
      name,
      startDate: '2026-03-10',
      serious: 'N',
    });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm', 'admin', 'coder', 'safety'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2026-03-03',
        initials: 'COD',
      });
      expect(created.statusCode, created.body).toBe(201);
      subject = created.json().id;
    });
    afterAll(async () => {
      await app.close();
    });

    it('queues verbatims saved before any dictionary is loaded', async () => {
      await save('adverseEvent', { hasAdverseEvent: 'Y', events: [event('Earache'), event('귀 통증')] });
      const { items } = await queue('&kind=meddra');
      expect(items.map((item) => [item.verbatim, item.status])).toEqual([
        ['Earache', 'pending'],
        ['귀 통증', 'pending'],
      ]);
      expect(items[0]?.itemPath).toBe('events[0].name');
    });

    it('loads the fictional MedDRA, WHODrug and synonyms; the first version codes what is pending', async () => {
      const meddra = await upload('coder', 'kind=meddra', 'meddra-90.0.zip', zipOf('meddra-90.0'));
      expect(meddra.statusCode, meddra.body).toBe(201);
      expect(meddra.json().dictionary).toMatchObject({
        kind: 'meddra',
        version: '90.0',
        active: true,
        termCount: 70,
      });
      const drugs = await upload('admin', 'kind=whodrug', 'who.zip', zipOf('whodrug-b3-2026-1'));
      expect(drugs.statusCode, drugs.body).toBe(201);
      expect(drugs.json().dictionary).toMatchObject({ version: '2026-1 fictional', termCount: 18 });
      const { readFileSync } = await import('node:fs');
      const csv = readFileSync(`${fictionalDictionaryFolder()}/synonyms.csv`);
      const synonyms = await upload('coder', 'kind=synonyms', 'synonyms.csv', csv);
      expect(synonyms.statusCode, synonyms.body).toBe(201);
      expect(synonyms.json().synonyms).toBe(5);
      const { items } = await queue('&kind=meddra');
      expect(
        items.map((item) => [item.verbatim, item.status, item.path?.llt?.code, item.path?.soc?.name.ko]),
      ).toEqual([
        ['Earache', 'auto', '99001011', '귀 및 미로 장애'],
        ['귀 통증', 'auto', '99000101', '귀 및 미로 장애'],
      ]);
      const list = await as('coder', 'GET', `${base()}/dictionaries`);
      expect(list.json().dictionaries).toHaveLength(2);
      expect(list.json().synonyms.count).toBe(5);
    });

    it('refuses bad uploads with 4xx in the language asked', async () => {
      expect((await upload('coder', 'kind=meddra', 'again.zip', zipOf('meddra-90.0'))).statusCode).toBe(409);
      const notZip = await upload('coder', 'kind=meddra', 'x.zip', Buffer.from('not a zip'));
      expect(notZip.statusCode).toBe(422);
      const broken = zipSync({ 'llt.asc': strToU8('99000101$Ear pain$\r\n') });
      const bad = await upload('coder', 'kind=meddra&version=x1', 'bad.zip', Buffer.from(broken));
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.code).toBe('coding_file_invalid');
      expect(bad.json().error.message).toContain('llt.asc line 1');
      const badCsv = await upload('coder', 'kind=synonyms', 's.csv', Buffer.from('a,b\n'));
      expect(badCsv.statusCode).toBe(422);
      expect((await upload('coder', 'kind=nope', 's.csv', Buffer.from('x'))).statusCode).toBe(400);
      expect((await upload('crc', 'kind=synonyms', 's.csv', Buffer.from('x'))).statusCode).toBe(403);
      expect((await upload('safety', 'kind=synonyms', 's.csv', Buffer.from('x'))).statusCode).toBe(403);
    });

    it('codes on save: exact (any case, spacing, language) or synonym → auto, else pending', async () => {
      await save('adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [
          event('Earache'),
          event('귀 통증'),
          event('  TINNITUS '),
          event('ear ache'),
          event('weird ear feeling'),
        ],
      });
      await save('concomitantDrugs', {
        hasConcomitantDrugs: 'Y',
        drugs: [{ drugName: 'Acetaminophen' }, { drugName: '타이레놀' }, { drugName: 'Mystery tonic' }],
      });
      const { items, counts } = await queue();
      const byVerbatim = new Map(items.map((item) => [item.verbatim, item]));
      expect(byVerbatim.get('TINNITUS')?.status).toBe('auto');
      expect(byVerbatim.get('ear ache')?.path?.llt?.code).toBe('99001011');
      expect(byVerbatim.get('weird ear feeling')?.status).toBe('pending');
      expect(byVerbatim.get('Acetaminophen')?.path?.atc?.[0]?.code).toBe('N92BE01');
      expect(byVerbatim.get('타이레놀')?.status).toBe('auto');
      expect(byVerbatim.get('Mystery tonic')?.status).toBe('pending');
      expect(counts).toMatchObject({ pending: 2, query: 0 });
      // Pending first; the filters narrow in SQL.
      expect(items[0]?.status).toBe('pending');
      expect((await queue('&status=pending&kind=whodrug')).items.map((i) => i.verbatim)).toEqual([
        'Mystery tonic',
      ]);
      expect((await queue('&search=EAR')).total).toBe(3);
      expect((await queue(`&siteId=${site1}&status=auto`)).total).toBe(6);
      // A row removed loses its assignment.
      await save('concomitantDrugs', {
        hasConcomitantDrugs: 'Y',
        drugs: [{ drugName: 'Acetaminophen' }, { drugName: 'Mystery tonic' }],
      });
      expect((await queue('&kind=whodrug')).items.map((i) => i.verbatim).sort()).toEqual([
        'Acetaminophen',
        'Mystery tonic',
      ]);
    });

    it('searches the hierarchy by LLT or PT name in either language', async () => {
      const found = await as(
        'coder',
        'GET',
        `${base()}/search?kind=meddra&q=${encodeURIComponent('ear feeling')}`,
      );
      expect(found.json().results).toEqual([]);
      const ear = await as('coder', 'GET', `${base()}/search?kind=meddra&q=ear%20discomfort`);
      const first = ear.json().results[0];
      expect(first.code).toBe('99000115');
      expect(first.path).toMatchObject({
        pt: { code: '99000115' },
        hlt: { code: '99111000' },
        soc: { code: '99100000' },
      });
      const ko = await as('coder', 'GET', `${base()}/search?kind=meddra&q=${encodeURIComponent('먹먹')}`);
      expect(ko.json().results.map((r: { code: string }) => r.code)).toEqual(['99001151']);
      // Non-current LLTs are not offered.
      const nos = await as('coder', 'GET', `${base()}/search?kind=meddra&q=NOS`);
      expect(nos.json().results).toEqual([]);
      const drug = await as('coder', 'GET', `${base()}/search?kind=whodrug&q=ofloxacin`);
      expect(drug.json().results[0].path.atc[0].code).toBe('S92AA16');
      expect((await as('coder', 'GET', `${base()}/search?kind=meddra&q=`)).statusCode).toBe(400);
      expect((await as('dm', 'GET', `${base()}/search?kind=meddra&q=ear`)).statusCode).toBe(403);
    });

    it('codes one verbatim by hand, with a version check and a current code', async () => {
      const pending = (await queue('&status=pending&kind=meddra')).items[0] as Assignment;
      const url = `${base()}/assignments/${pending.id}/code`;
      expect(
        (await as('coder', 'POST', url, { version: pending.version, code: '99001014' })).statusCode,
      ).toBe(422);
      expect(
        (await as('coder', 'POST', url, { version: pending.version, code: '12345678' })).statusCode,
      ).toBe(422);
      expect((await as('coder', 'POST', url, { version: pending.version, code: 'abc' })).statusCode).toBe(
        400,
      );
      expect((await as('dm', 'POST', url, { version: pending.version, code: '99000115' })).statusCode).toBe(
        403,
      );
      const coded = await as('coder', 'POST', url, { version: pending.version, code: '99000115' });
      expect(coded.statusCode, coded.body).toBe(200);
      expect(coded.json()).toMatchObject({
        status: 'manual',
        codedBy: expect.any(String),
        dictionaryVersion: '90.0',
      });
      const stale = await as('coder', 'POST', url, { version: pending.version, code: '99000115' });
      expect(stale.statusCode).toBe(409);
      expect(
        (await as('coder', 'POST', `${base()}/assignments/999999/code`, { version: 1, code: '99000115' }))
          .statusCode,
      ).toBe(404);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type'])
        .where('entity_type', '=', 'coding_assignment')
        .where('entity_id', '=', String(pending.id))
        .execute();
      expect(audit.map((row) => row.event_type)).toContain('coding.coded');
    });

    it('sends an unclear verbatim back to the site as a query; the correction recodes it', async () => {
      const mystery = (await queue('&status=pending&kind=whodrug')).items[0] as Assignment;
      const url = `${base()}/assignments/${mystery.id}/query`;
      expect((await as('coder', 'POST', url, { version: mystery.version, text: ' ' })).statusCode).toBe(400);
      const sent = await as('coder', 'POST', url, {
        version: mystery.version,
        text: 'Which product is this?',
      });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json().assignment.status).toBe('query');
      const query = await database()
        .db.selectFrom('queries')
        .select(['item_path', 'status', 'kind'])
        .where('id', '=', sent.json().queryId)
        .executeTakeFirstOrThrow();
      expect(query).toMatchObject({
        item_path: 'all.concomitantDrugs.drugs[1].drugName',
        status: 'open',
        kind: 'manual',
      });
      const again = await as('coder', 'POST', url, {
        version: sent.json().assignment.version,
        text: 'Again?',
      });
      expect(again.statusCode).toBe(409);
      // The site corrects the name: the row is coded again on the save.
      await save('concomitantDrugs', {
        hasConcomitantDrugs: 'Y',
        drugs: [{ drugName: 'Acetaminophen' }, { drugName: 'Ibuprofen' }],
      });
      const after = (await queue('&kind=whodrug')).items.find((item) => item.id === mystery.id);
      expect(after).toMatchObject({ status: 'auto', verbatim: 'Ibuprofen' });
    });

    it('previews and applies a version upgrade: a non-current LLT back to the queue, a moved PT recoded', async () => {
      await save('adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [event('Earache'), event('Cephalgia'), event('Dizziness')],
      });
      const next = await upload('coder', 'kind=meddra', 'meddra-90.1.zip', zipOf('meddra-90.1'));
      expect(next.statusCode, next.body).toBe(201);
      expect(next.json().dictionary.active).toBe(false);
      const id = next.json().dictionary.id as number;
      const preview = await as('coder', 'GET', `${base()}/dictionaries/${id}/upgrade`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({ from: '90.0', to: '90.1' });
      expect(
        preview.json().changes.map((c: { verbatim: string; change: string }) => [c.verbatim, c.change]),
      ).toEqual([
        ['Cephalgia', 'llt_not_current'],
        ['Dizziness', 'soc_moved'],
      ]);
      expect((await as('dm', 'GET', `${base()}/dictionaries/${id}/upgrade`)).statusCode).toBe(403);
      expect((await as('coder', 'GET', `${base()}/dictionaries/999999/upgrade`)).statusCode).toBe(404);
      const applied = await as('coder', 'POST', `${base()}/dictionaries/${id}/upgrade`);
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json()).toMatchObject({ version: '90.1', recoded: 1, sentToQueue: 1 });
      const { items } = await queue('&kind=meddra');
      const byVerbatim = new Map(items.map((item) => [item.verbatim, item]));
      expect(byVerbatim.get('Cephalgia')?.status).toBe('pending');
      expect(byVerbatim.get('Dizziness')?.path?.soc?.code).toBe('99100000');
      expect((await as('coder', 'POST', `${base()}/dictionaries/${id}/upgrade`)).statusCode).toBe(409);
    });
  },
  { seed: 'demo' },
);

describe('fictional dictionary folder', () => {
  it('is found through the study package', () => {
    expect(fictionalDistribution('meddra-90.0').get('ko/llt.asc')).toContain('고막 재천공');
  });
});
