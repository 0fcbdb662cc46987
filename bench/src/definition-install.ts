import {
  type StudyDefinition,
  writeDefinitionWorkbook,
  writeOdmMetadata,
  writeRedcapDictionary,
} from '@cdms/study';
import { BENCH_PASSWORD } from './build-study/bench-study.ts';
import { HttpClient, signIn } from './load/http-client.ts';
import { PeakRss, residentBytes } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';

// The "definition install" measurement (issue 45 item 6): a study's design the size of a large REDCap
// project — 3,000 items in 60 forms — created in design and uploaded as a document the way a data
// manager does (`POST /api/admin/studies`, then `PUT /api/studies/:id/definition`: the server checks it
// with the zod schema, cross-references included, and publishes it). Then its download, which is how
// the browser reads the forms of a study, a few times over. Then the same design as a REDCap data
// dictionary, as ODM 1.3.2 metadata and as a workbook (issue 47 item 7: 3,000 fields, target under
// 10 s with flat memory), each previewed and confirmed through the import into a study in design of
// its own, with the server's resident set.

export interface DefinitionInstallResult {
  db: string;
  forms: number;
  items: number;
  bytes: number;
  /** Seconds from sending the document to the answer (target: under 5). */
  seconds: number;
  status: number;
  /** `GET /api/studies/:id/definition` of that study, median and worst of `READS`. */
  readP50Ms: number;
  readMaxMs: number;
  /** The same design imported from each format a study can be imported from. */
  imports: DesignImportResult[];
}

export interface DesignImportResult {
  format: DesignImportFormat;
  bytes: number;
  /** Preview, then confirmation: seconds each, and their statuses. */
  previewSeconds: number;
  confirmSeconds: number;
  statuses: [number, number];
  /** The server's resident set before, and its peak during both. */
  idleRssMb: number;
  peakRssMb: number;
}

type DesignImportFormat = 'redcapDictionary' | 'odmMetadata' | 'workbook';

const FORMS = 60;
const ITEMS_PER_FORM = 50;
const READS = 10;
const ADMIN_EMAIL = 'admin@demo.cdms';

const label = (ko: string, en: string) => ({ ko, en });

/**
 * A definition of `FORMS` forms of `ITEMS_PER_FORM` items each, of every common kind (text, numbers
 * with ranges, dates, choices from a code list), each form with an edit check, spread over six visits.
 */
export function largeDefinition(): unknown {
  const kinds = ['text', 'integer', 'decimal', 'date', 'singleChoice'] as const;
  const forms = Array.from({ length: FORMS }, (_, form) => ({
    key: `form${form + 1}`,
    label: label(`양식 ${form + 1}`, `Form ${form + 1}`),
    sections: [0, 1].map((section) => ({
      key: `section${section + 1}`,
      label: label(`구역 ${section + 1}`, `Section ${section + 1}`),
      items: Array.from({ length: ITEMS_PER_FORM / 2 }, (_, index) => {
        const number = section * (ITEMS_PER_FORM / 2) + index + 1;
        const type = kinds[number % kinds.length] as (typeof kinds)[number];
        return {
          key: `item${number}`,
          type,
          label: label(`항목 ${number}`, `Item ${number}`),
          ...(type === 'integer' ? { min: 0, max: 200, hardMin: -10, hardMax: 1000 } : {}),
          ...(type === 'decimal' ? { decimals: 1, min: 0, max: 50 } : {}),
          ...(type === 'singleChoice' ? { codeList: 'grade' } : {}),
          ...(type === 'date' ? { notFuture: true } : {}),
        };
      }),
    })),
    checks: [
      {
        id: `form${form + 1}.secondAboveFirst`,
        item: 'item2',
        when: { op: 'gt', args: [{ ref: 'item2' }, { ref: 'item6' }] },
        severity: 'query',
        message: label('항목 2가 항목 6보다 큽니다.', 'Item 2 is above item 6.'),
      },
    ],
  }));
  const visits = Array.from({ length: 6 }, (_, visit) => ({
    key: `visit${visit + 1}`,
    label: label(`방문 ${visit + 1}`, `Visit ${visit + 1}`),
    group: visit === 0 ? 'screening' : 'follow_up',
    forms: forms.slice(visit * 10, visit * 10 + 10).map((form) => form.key),
  }));
  return {
    key: 'benchLarge',
    version: '1.0.0',
    label: label('대형 설계 벤치마크', 'Large design benchmark'),
    codeLists: [
      {
        key: 'grade',
        codes: [1, 2, 3, 4].map((grade) => ({
          code: String(grade),
          label: label(`${grade}등급`, `Grade ${grade}`),
        })),
      },
    ],
    visits,
    forms,
  };
}

export async function measureDefinitionInstall(
  server: RunningServer,
  db: string,
): Promise<DefinitionInstallResult> {
  const client = new HttpClient(server.url);
  try {
    const session = await signIn(client, ADMIN_EMAIL, BENCH_PASSWORD);
    const json = { ...session, 'content-type': 'application/json' };
    // A code of its own per run: a database kept for later runs holds the earlier ones.
    const code = `DEF-${Date.now().toString(36).toUpperCase()}`;
    const id = await createStudyInDesign(client, json, code, '대형 설계');
    const body = JSON.stringify(largeDefinition());
    const started = performance.now();
    const installed = await client.request('PUT', `/api/studies/${id}/definition`, json, body);
    const seconds = (performance.now() - started) / 1000;
    const reads: number[] = [];
    for (let read = 0; read < READS; read += 1) {
      const readStarted = performance.now();
      const answer = await client.request('GET', `/api/studies/${id}/definition`, session);
      if (answer.status !== 200) throw new Error(`reading ${code}'s definition: ${answer.status}`);
      reads.push(performance.now() - readStarted);
    }
    reads.sort((a, b) => a - b);
    const imports: DesignImportResult[] = [];
    for (const [index, format] of (['redcapDictionary', 'odmMetadata', 'workbook'] as const).entries())
      imports.push(await measureImport(server, client, json, `${code}I${index + 1}`, format));
    return {
      db,
      forms: FORMS,
      items: FORMS * ITEMS_PER_FORM,
      bytes: Buffer.byteLength(body),
      seconds,
      status: installed.status,
      readP50Ms: reads[Math.floor(reads.length / 2)] ?? 0,
      readMaxMs: reads.at(-1) ?? 0,
      imports,
    };
  } finally {
    client.close();
  }
}

/** A new study in design, as the new-study dialog creates it; its id. */
async function createStudyInDesign(
  client: HttpClient,
  json: Record<string, string>,
  code: string,
  title: string,
): Promise<number> {
  const body = {
    code,
    protocolNumber: '',
    titleKo: title,
    titleEn: '',
    sponsor: '',
    kind: 'drug',
    content: '',
  };
  const created = await client.request('POST', '/api/admin/studies', json, JSON.stringify(body));
  if (created.status !== 201) throw new Error(`creating ${code}: ${created.status} ${created.body}`);
  return (JSON.parse(created.body) as { id: number }).id;
}

/** The large design written as an import of `format` reads it: the request's file (a workbook as base64). */
function importRequest(format: DesignImportFormat): {
  format: DesignImportFormat;
  file: string;
  eventMapping?: string;
} {
  const definition = largeDefinition() as StudyDefinition;
  switch (format) {
    case 'redcapDictionary': {
      const written = writeRedcapDictionary(definition, 'en');
      return { format, file: written.dictionary, eventMapping: written.eventMapping };
    }
    case 'odmMetadata':
      return { format, file: writeOdmMetadata(definition) };
    case 'workbook':
      return { format, file: Buffer.from(writeDefinitionWorkbook(definition)).toString('base64') };
  }
}

/** The large design in one format, previewed and confirmed into a new study in design. */
async function measureImport(
  server: RunningServer,
  client: HttpClient,
  json: Record<string, string>,
  code: string,
  format: DesignImportFormat,
): Promise<DesignImportResult> {
  const id = await createStudyInDesign(client, json, code, `가져오기 ${format}`);
  const request = { ...importRequest(format), language: 'en' };
  const idleRss = residentBytes(server.pid);
  const peak = new PeakRss(server.pid);
  let started = performance.now();
  const preview = await client.request(
    'POST',
    `/api/studies/${id}/definition-imports/preview`,
    json,
    JSON.stringify(request),
  );
  const previewSeconds = (performance.now() - started) / 1000;
  const { contentHash } = JSON.parse(preview.body) as { contentHash: string | null };
  started = performance.now();
  const confirm = await client.request(
    'POST',
    `/api/studies/${id}/definition-imports`,
    json,
    JSON.stringify({ ...request, contentHash }),
  );
  const confirmSeconds = (performance.now() - started) / 1000;
  return {
    format,
    bytes: Buffer.byteLength(request.file),
    previewSeconds,
    confirmSeconds,
    statuses: [preview.status, confirm.status],
    idleRssMb: idleRss / 2 ** 20,
    peakRssMb: peak.stop() / 2 ** 20,
  };
}
