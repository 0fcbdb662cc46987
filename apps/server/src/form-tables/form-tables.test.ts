import type { StudyDefinition } from '@cdms/study';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { createTestDatabase, describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { countFormTableValues, type FormTablesOptions, formTablesCsvZip, formTablesXlsx } from './index.ts';

// Per-form tables read back: the ZIP is opened and each CSV parsed (or each sheet's XML read) by the
// test's own small readers, and every stored value is looked up in the cell it belongs in. The
// expectations come from what the test saved and what the database holds, not from the writers.

/** RFC 4180, read strictly: quoted fields may hold commas, quotes ("") and CRLF; lines end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else if (char === '\n') throw new Error(`A bare LF outside quotes at ${i}`);
    else field += char;
  }
  if (field !== '' || row.length > 0) throw new Error('The last line has no CRLF');
  return rows;
}

type Table = { header: string[]; rows: Record<string, string>[] };

function tableOf(grid: string[][]): Table {
  const [header = [], ...rows] = grid;
  return {
    header,
    rows: rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']))),
  };
}

async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

const BOM = '\uFEFF';

async function csvTables(chunks: AsyncIterable<Uint8Array>) {
  const files = unzipSync(await bytesOf(chunks));
  const texts = new Map<string, string>();
  for (const [name, data] of Object.entries(files))
    texts.set(name, new TextDecoder('utf-8', { ignoreBOM: true }).decode(data));
  const tables = new Map<string, Table>();
  for (const [name, text] of texts) {
    expect(text.startsWith(BOM), `${name} starts with a BOM`).toBe(true);
    tables.set(name.replace(/\.csv$/, ''), tableOf(parseCsv(text.slice(1))));
  }
  return { names: Object.keys(files), texts, tables };
}

/** The sheets of an XLSX, by name, as header + rows (cells placed by their references). */
function readXlsx(bytes: Uint8Array): Map<string, Table> {
  const files = unzipSync(bytes);
  const text = (name: string) => {
    const data = files[name];
    if (!data) throw new Error(`No ${name} in the workbook`);
    return new TextDecoder().decode(data);
  };
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (name) => ['sheet', 'row', 'c', 'Relationship'].includes(name),
    parseTagValue: false,
    trimValues: false,
  });
  const workbook = parser.parse(text('xl/workbook.xml'));
  const relations = parser.parse(text('xl/_rels/workbook.xml.rels'));
  const targets = new Map<string, string>(
    relations.Relationships.Relationship.map((rel: Record<string, string>) => [rel['@Id'], rel['@Target']]),
  );
  const unescapeText = (value: string) =>
    value.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const columnIndex = (ref: string) =>
    [...(ref.match(/^[A-Z]+/)?.[0] ?? '')].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0) -
    1;
  const sheets = new Map<string, Table>();
  for (const sheet of workbook.workbook.sheets.sheet) {
    const target = targets.get(sheet['@r:id']);
    const xml = parser.parse(text(`xl/${target}`));
    const grid: string[][] = (xml.worksheet.sheetData.row ?? []).map(
      (row: { c?: Record<string, unknown>[] }) => {
        const cells: string[] = [];
        for (const cell of row.c ?? []) {
          const index = columnIndex(String(cell['@r']));
          while (cells.length < index) cells.push('');
          if (cell['@t'] === 'inlineStr') {
            const t = (cell.is as { t: string | { '#text'?: string } }).t;
            cells[index] = unescapeText(typeof t === 'string' ? t : (t['#text'] ?? ''));
          } else cells[index] = `#${String(cell.v)}`; // numbers marked, to tell them from text
        }
        return cells;
      },
    );
    sheets.set(String(sheet['@name']), tableOf(grid));
  }
  return sheets;
}

/** The test's own reading of a stored value as a CSV cell (formula guard included). */
function expectedCsv(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(expectedCsv).join(';');
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const TRICKY_TEXT = 'Otitis, "chronic"\r\nsecond line';
const FORMULA_TEXT = '=HYPERLINK("http://evil.example","x")';
const KOREAN_TERM = '이명 악화 — 좌측';
const CONTROL_TEXT = 'bell\u0007 and _x0041_';

describeWithDatabase(
  'form tables',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    let definition: StudyDefinition;
    const session: Record<string, SignedIn> = {};
    const subject = { a: { id: 0, key: '' }, b: { id: 0, key: '' }, deleted: { id: 0, key: '' } };
    const siteCode: Record<number, string> = {};

    const as = (who: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
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
      return { id: created.json().id as number, key: created.json().subjectId as string };
    }
    async function save(who: string, subjectId: number, visit: string, form: string, values: object) {
      const current = (await as(who, 'GET', formUrl(subjectId, visit, form))).json();
      const saved = await as(who, 'PUT', formUrl(subjectId, visit, form), {
        values: { ...current.values, ...values },
        version: current.version,
        reasons: {},
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const options = (
      extra: Partial<FormTablesOptions['scope']> = {},
      labels: FormTablesOptions['labels'] = null,
    ) => ({
      scope: { studyId, ...extra },
      labels,
    });

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      const sites = await db
        .selectFrom('sites')
        .select(['id', 'code', 'institution_number'])
        .where('study_id', '=', studyId)
        .execute();
      for (const site of sites) siteCode[site.id] = site.code;
      site1 = sites.find((site) => site.institution_number === '01')?.id ?? 0;
      site2 = sites.find((site) => site.institution_number === '02')?.id ?? 0;
      definition = (await currentStudyDefinition(db, studyId))?.definition as StudyDefinition;
      for (const who of ['pi', 'si', 'crc']) session[who] = await signIn(app, `${who}@demo.cdms`);

      subject.a = await newSubject('si', site1, 'TBA');
      await save('si', subject.a.id, 'v1', 'demographicInfo', { birthDate: '1980-05-06', gender: 'M' });
      await save('si', subject.a.id, 'v1', 'bodyMeasurement', {
        measurementDate: '2025-03-03',
        height: 170.5,
        weight: 65.2,
      });
      await save('si', subject.a.id, 'v1', 'medicalHistory', {
        histories: [
          { content: TRICKY_TEXT, startDate: '2020-01-01', ongoing: true },
          { content: FORMULA_TEXT, startDate: '2019-02-02' },
          { content: CONTROL_TEXT, startDate: '2018-03-03' },
        ],
      });
      await save('si', subject.a.id, 'all', 'adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [
          { name: KOREAN_TERM, startDate: '2025-03-05', startTime: '14:30', serious: 'N' },
          { name: '-2 dB', startDate: '2025-03-06', serious: 'Y' },
        ],
      });

      subject.b = await newSubject('crc', site2, 'TBB');
      await save('crc', subject.b.id, 'v1', 'demographicInfo', { birthDate: '1990-09-09', gender: 'F' });

      subject.deleted = await newSubject('si', site1, 'DEL');
      const deleted = await as('pi', 'DELETE', `/api/studies/${studyId}/subjects/${subject.deleted.id}`, {
        reason: 'Registered twice',
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
    }, 180_000);

    afterAll(async () => {
      await app.close();
    });

    it('writes the codebook and one CSV per table, each UTF-8 with a BOM and CRLF line ends', async () => {
      const { names, texts } = await csvTables(formTablesCsvZip(database().db, options()));
      expect(names[0]).toBe('codebook.csv');
      expect(names).toContain('demographicInfo.csv');
      expect(names).toContain('medicalHistory__histories.csv');
      expect(names).toContain('adverseEvent.csv');
      expect(names).toContain('adverseEvent__events.csv');
      // Forms without data still get their (empty) table, so a study's file set never depends on the data.
      expect(names).toContain('diseaseBasicInfo.csv');
      expect(texts.get('demographicInfo.csv')?.split('\r\n')[0]).toBe(
        `${BOM}subject,site,visit,repeat,birthDate,age,gender`,
      );
    });

    it('puts every stored value of the scope in its cell', async () => {
      const { tables } = await csvTables(formTablesCsvZip(database().db, options()));
      const stored = await database()
        .db.selectFrom('item_values as iv')
        .innerJoin('form_instances as fi', 'fi.id', 'iv.form_instance_id')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select(['s.screening_number', 's.site_id', 'fi.visit_key', 'fi.form_key', 'iv.item_key', 'iv.value'])
        .where('s.study_id', '=', studyId)
        .where('s.deleted_at', 'is', null)
        .execute();
      let checked = 0;
      for (const value of stored) {
        const form = definition.forms.find((candidate) => candidate.key === value.form_key);
        const group = form?.sections.find((section) => section.repeating?.key === value.item_key);
        const rowsOf = (name: string) =>
          (tables.get(name)?.rows ?? []).filter(
            (row) => row.subject === value.screening_number && row.visit === value.visit_key,
          );
        if (group) {
          const rows = rowsOf(`${value.form_key}__${value.item_key}`);
          const stored = value.value as Record<string, unknown>[];
          expect(rows).toHaveLength(stored.length);
          stored.forEach((cells, index) => {
            expect(rows[index]?.repeat).toBe(String(index + 1));
            for (const item of group.items) {
              expect(
                rows[index]?.[item.key],
                `${value.form_key}.${value.item_key}[${index}].${item.key}`,
              ).toBe(expectedCsv(cells[item.key]));
              checked += 1;
            }
          });
        } else {
          const rows = rowsOf(value.form_key);
          expect(rows, `${value.screening_number} ${value.visit_key} ${value.form_key}`).toHaveLength(1);
          expect(rows[0]?.site).toBe(siteCode[value.site_id]);
          expect(rows[0]?.repeat).toBe('');
          expect(rows[0]?.[value.item_key], `${value.form_key}.${value.item_key}`).toBe(
            expectedCsv(value.value),
          );
          checked += 1;
        }
      }
      // The derived values (age, BMI) are among them, and the saved ones are where the test put them.
      expect(checked).toBeGreaterThan(20);
      const body = tables.get('bodyMeasurement')?.rows.find((row) => row.subject === subject.a.key);
      expect(body).toMatchObject({
        height: '170.5',
        weight: '65.2',
        bmi: '22.4',
        measurementDate: '2025-03-03',
      });
      const demographics = tables.get('demographicInfo')?.rows.find((row) => row.subject === subject.a.key);
      expect(demographics).toMatchObject({ birthDate: '1980-05-06', age: '44', gender: 'M', visit: 'v1' });
    });

    it('quotes commas, quotes and line breaks, and guards formulas', async () => {
      const { tables, texts } = await csvTables(formTablesCsvZip(database().db, options()));
      const histories = tables
        .get('medicalHistory__histories')
        ?.rows.filter((row) => row.subject === subject.a.key);
      expect(histories?.map((row) => row.content)).toEqual([TRICKY_TEXT, `'${FORMULA_TEXT}`, CONTROL_TEXT]);
      expect(texts.get('medicalHistory__histories.csv')).toContain('"Otitis, ""chronic""\r\nsecond line"');
      const events = tables.get('adverseEvent__events')?.rows.filter((row) => row.subject === subject.a.key);
      expect(events?.map((row) => [row.repeat, row.name, row.startTime, row.serious])).toEqual([
        ['1', KOREAN_TERM, '14:30', 'N'],
        ['2', "'-2 dB", '', 'Y'],
      ]);
    });

    it('adds a label column after each coded item, in the language asked for', async () => {
      const plain = await csvTables(formTablesCsvZip(database().db, options()));
      expect(plain.tables.get('adverseEvent')?.header).toEqual([
        'subject',
        'site',
        'visit',
        'repeat',
        'hasAdverseEvent',
      ]);
      for (const [language, male, yes, no] of [
        ['ko', '남', '예', '아니오'],
        ['en', 'Male', 'Yes', 'No'],
      ] as const) {
        const { tables } = await csvTables(formTablesCsvZip(database().db, options({}, language)));
        expect(tables.get('demographicInfo')?.header).toEqual([
          'subject',
          'site',
          'visit',
          'repeat',
          'birthDate',
          'age',
          'gender',
          'gender_label',
        ]);
        expect(
          tables.get('demographicInfo')?.rows.find((row) => row.subject === subject.a.key),
        ).toMatchObject({
          gender: 'M',
          gender_label: male,
        });
        const events = tables
          .get('adverseEvent__events')
          ?.rows.filter((row) => row.subject === subject.a.key);
        expect(events?.map((row) => [row.serious, row.serious_label])).toEqual([
          ['N', no],
          ['Y', yes],
        ]);
        // An empty coded value has an empty label.
        expect(events?.[0]?.severity_label).toBe('');
      }
    });

    it('writes a codebook with both languages, types, units and codes', async () => {
      const { tables } = await csvTables(formTablesCsvZip(database().db, options()));
      const codebook = tables.get('codebook');
      expect(codebook?.header).toEqual(['table', 'item', 'label_ko', 'label_en', 'type', 'unit', 'codes']);
      expect(codebook?.rows.find((row) => row.table === 'demographicInfo' && row.item === 'gender')).toEqual({
        table: 'demographicInfo',
        item: 'gender',
        label_ko: '성별',
        label_en: 'Sex',
        type: 'singleChoice',
        unit: '',
        codes: 'M=남 / Male; F=여 / Female',
      });
      expect(
        codebook?.rows.find((row) => row.table === 'bodyMeasurement' && row.item === 'bmi'),
      ).toMatchObject({
        type: 'decimal',
        unit: 'kg/m²',
      });
      expect(
        codebook?.rows.find((row) => row.table === 'adverseEvent__events' && row.item === 'serious')?.codes,
      ).toBe('Y=예 / Yes; N=아니오 / No');
    });

    it('keeps to the scope: sites, statuses, forms; deleted subjects never', async () => {
      const db = database().db;
      const subjectsIn = async (scope: Partial<FormTablesOptions['scope']>, form = 'demographicInfo') => {
        const { tables } = await csvTables(formTablesCsvZip(db, options(scope)));
        return [...new Set(tables.get(form)?.rows.map((row) => row.subject))].sort();
      };
      expect(await subjectsIn({})).toEqual([subject.a.key, subject.b.key].sort());
      expect(await subjectsIn({ siteIds: [site2] })).toEqual([subject.b.key]);
      expect(await subjectsIn({ siteIds: [] })).toEqual([]);
      // The registration form holds data of every registered subject, the deleted one's included.
      expect(await subjectsIn({}, 'consentScreening')).toEqual([subject.a.key, subject.b.key].sort());

      const { tables } = await csvTables(
        formTablesCsvZip(db, options({ formKeys: ['bodyMeasurement', 'adverseEvent'] })),
      );
      expect([...tables.keys()].sort()).toEqual([
        'adverseEvent',
        'adverseEvent__events',
        'bodyMeasurement',
        'codebook',
      ]);
      expect(new Set(tables.get('codebook')?.rows.map((row) => row.table))).toEqual(
        new Set(['adverseEvent', 'adverseEvent__events', 'bodyMeasurement']),
      );

      // A status filter (the status is set here directly: what the filter reads is the stored column).
      const statusOf = await db
        .selectFrom('subjects')
        .select('status')
        .where('id', '=', subject.b.id)
        .executeTakeFirstOrThrow();
      await db.updateTable('subjects').set({ status: 'dropout' }).where('id', '=', subject.b.id).execute();
      try {
        expect(await subjectsIn({ statuses: ['dropout'] })).toEqual([subject.b.key]);
        expect(
          await subjectsIn({ statuses: [statusOf.status === 'dropout' ? 'screening' : statusOf.status] }),
        ).not.toContain(subject.b.key);
      } finally {
        await db
          .updateTable('subjects')
          .set({ status: statusOf.status })
          .where('id', '=', subject.b.id)
          .execute();
      }
    });

    it('pages through subjects without losing or repeating a row, and reports progress up to the count', async () => {
      const db = database().db;
      const total = await countFormTableValues(db, { studyId });
      const stored = await db
        .selectFrom('item_values as iv')
        .innerJoin('form_instances as fi', 'fi.id', 'iv.form_instance_id')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('s.study_id', '=', studyId)
        .where('s.deleted_at', 'is', null)
        .where('fi.has_data', '=', true)
        .executeTakeFirstOrThrow();
      // Every stored value of these subjects has a key of the current definition.
      expect(total).toBe(Number(stored.count));
      expect(await countFormTableValues(db, { studyId, siteIds: [site2] })).toBeLessThan(total);

      const progress: number[] = [];
      const paged = await csvTables(formTablesCsvZip(db, options(), (done) => progress.push(done.values), 1));
      const whole = await csvTables(formTablesCsvZip(db, options()));
      expect(paged.texts).toEqual(whole.texts);
      expect(progress.at(-1)).toBe(total);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it('writes an XLSX: the codebook first, a sheet per table, numbers as numbers, Korean and control characters intact', async () => {
      const db = database().db;
      let done = 0;
      const sheets = readXlsx(
        await bytesOf(formTablesXlsx(db, options({}, 'ko'), (progress) => (done = progress.values), 2)),
      );
      const csv = await csvTables(formTablesCsvZip(db, options({}, 'ko')));
      // Sheet names are the table names, cut to Excel's 31 characters.
      expect([...sheets.keys()]).toEqual([...csv.tables.keys()].map((name) => name.slice(0, 31)));
      expect(sheets.has('treatmentInvestigation__treatme')).toBe(true);
      expect(done).toBe(await countFormTableValues(db, { studyId }));
      const body = sheets.get('bodyMeasurement')?.rows.find((row) => row.subject === subject.a.key);
      expect(body).toMatchObject({
        height: '#170.5',
        weight: '#65.2',
        bmi: '#22.4',
        measurementDate: '2025-03-03',
      });
      const histories = sheets
        .get('medicalHistory__histories')
        ?.rows.filter((row) => row.subject === subject.a.key);
      // No formula guard in a workbook: an inline string is never evaluated, so it keeps its value.
      expect(histories?.map((row) => row.content)).toEqual([TRICKY_TEXT, FORMULA_TEXT, CONTROL_TEXT]);
      const events = sheets.get('adverseEvent__events')?.rows.filter((row) => row.subject === subject.a.key);
      expect(events?.map((row) => [row.repeat, row.name, row.serious_label])).toEqual([
        ['#1', KOREAN_TERM, '아니오'],
        ['#2', '-2 dB', '예'],
      ]);
      expect(sheets.get('codebook')?.rows.find((row) => row.item === 'gender')?.label_ko).toBe('성별');
      // The same cells as the CSV once the CSV's guard and the sheet's number marks are taken off.
      for (const [name, table] of csv.tables) {
        const sheet = sheets.get(name.slice(0, 31));
        const unmark = (cell: string) => cell.replace(/^#/, '');
        const unguard = (cell: string) => cell.replace(/^'(?=[=+\-@\t\r])/, '');
        expect(
          sheet?.rows.map((row) => table.header.map((column) => unmark(row[column] ?? ''))),
          name,
        ).toEqual(table.rows.map((row) => table.header.map((column) => unguard(row[column] ?? ''))));
      }
    });
  },
  { seed: 'demo' },
);

for (const [name, write] of [
  ['CSV', formTablesCsvZip],
  ['XLSX', formTablesXlsx],
] as const) {
  it(`${name}: throws when the database fails mid-way, so the caller can discard what it wrote`, async () => {
    const handle = await createTestDatabase('pglite', { seed: 'demo' });
    try {
      const study = await handle.db
        .selectFrom('studies')
        .select('id')
        .where('code', '=', 'TMP-2026')
        .executeTakeFirstOrThrow();
      const chunks = write(handle.db, { scope: { studyId: study.id }, labels: null })[Symbol.asyncIterator]();
      // The first bytes are out (the codebook) before the tables are read.
      expect((await chunks.next()).done).toBe(false);
      await handle.close();
      await expect(
        (async () => {
          for (;;) if ((await chunks.next()).done) return;
        })(),
      ).rejects.toThrow();
    } finally {
      await handle.close().catch(() => undefined);
    }
  }, 60_000);
}
