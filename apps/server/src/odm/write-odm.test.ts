import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type StudyDefinition, type SubjectData, sampleSubject, tmPerforationStudy } from '@cdms/study';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryMessageRow, QueryRow } from '../db/schema.ts';
import type { ExportAuditRow, ExportQuery, ExportSubject, ExportValueRow } from './load-export-batch.ts';
import type { ExportHeader } from './load-export-header.ts';
import { buildOdmMetadata } from './odm-metadata.ts';
import { validateOdmFile } from './validate-odm.ts';
import { writeOdm20 } from './write-odm-20.ts';
import { writeOdm132 } from './write-odm-132.ts';

/**
 * The two writers over one fixed input, their output pinned to the byte by its hash: a change of
 * the writers' code that is meant to write the same documents (issue 44: the two share their
 * model) must leave these hashes alone. The database tests check what the documents mean (schema
 * valid, every value read back); this one that they do not move. A hash that changes on purpose is
 * updated with the change that moved it, after reading the new document.
 */

const AT = new Date('2025-03-10T01:02:03.456Z');
const LATER = new Date('2025-03-11T09:00:00.000Z');

/** The first study's definition, with one choice made multiple so that both writers' lists show. */
function definitionWithAMultipleChoice(): StudyDefinition {
  const definition = structuredClone(tmPerforationStudy);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      if (object.key === 'queryRadio' && object.type === 'singleChoice') object.type = 'multipleChoice';
      Object.values(object).forEach(walk);
    }
  };
  walk(definition);
  return definition;
}

const definition = definitionWithAMultipleChoice();
const header: ExportHeader = {
  study: { id: 1, code: 'TMP-2026', title: '고막 천공 <재생> & "치유" 연구' },
  definition,
  definitionVersion: definition.version,
  definitionVersions: [definition],
  definitionDate: '2025-01-02',
  sites: [
    { id: 1, code: 'S01', name: '서울 병원' },
    { id: 2, code: 'S02', name: 'Busan & Co' },
  ],
  users: [
    { id: 7, name: '김민수' },
    { id: 8, name: 'Jane Q. Doe' },
  ],
  signatureMeanings: [
    { ko: '검토하고 승인합니다', en: 'Reviewed and approved' },
    { ko: 'Same', en: 'Same' },
  ],
};

function valueRows(data: SubjectData): ExportValueRow[] {
  const rows: ExportValueRow[] = [];
  for (const [visitKey, forms] of Object.entries(data)) {
    for (const [formKey, values] of Object.entries(forms ?? {})) {
      for (const [itemKey, value] of Object.entries(values ?? {}))
        rows.push({ visitKey, formKey, itemKey, value, derived: false, updatedAt: LATER, updatedBy: 8 });
    }
  }
  return rows;
}

function queryRow(id: number, fields: Partial<QueryRow>): QueryRow {
  return {
    id,
    study_id: 1,
    site_id: 1,
    subject_id: 1,
    visit_key: 'v1',
    form_key: 'vitalSigns',
    item_path: '',
    check_id: null,
    kind: 'manual',
    status: 'open',
    message: { ko: '확인 바랍니다', en: 'Please check' },
    opened_at: AT,
    opened_by: 8,
    closed_at: null,
    assignee: 'site',
    reopened: false,
    last_message_at: LATER,
    message_count: 2,
    closed_over_check: false,
    ...fields,
  };
}

function message(id: number, queryId: number, fields: Partial<QueryMessageRow>): QueryMessageRow {
  return {
    id,
    query_id: queryId,
    kind: 'opened',
    text: { ko: '확인 바랍니다', en: 'Please check' },
    author_user_id: 8,
    author_role: 'CRA',
    created_at: AT,
    proposed_value: null,
    ...fields,
  };
}

const queries: ExportQuery[] = [
  // On a value.
  {
    query: queryRow(1, { item_path: 'v1.vitalSigns.heartRate' }),
    messages: [
      message(1, 1, {}),
      message(2, 1, { kind: 'answer', author_user_id: 7, author_role: 'CRC', proposed_value: 74 }),
    ],
  },
  // On a form with data, by the data manager, closed.
  {
    query: queryRow(2, { form_key: 'physicalExam', status: 'closed' }),
    messages: [
      message(3, 2, { author_role: 'DM' }),
      message(4, 2, { kind: 'close', text: { ko: '닫음', en: '닫음' } }),
    ],
  },
  // A system query on a form the subject has no data in: it sits on the subject.
  {
    query: queryRow(3, { visit_key: 'v9', form_key: 'nothing', kind: 'system', opened_by: null }),
    messages: [message(5, 3, { author_user_id: null, author_role: null })],
  },
];

function firstSubject(): ExportSubject {
  const data = sampleSubject();
  const visitDay = data.v1?.visitDay;
  if (visitDay) visitDay.queryRadio = ['001', '099'];
  data['unscheduled-1'] = { physicalExam: { nd: false, result: 'abnormal' } };
  const values = valueRows(data);
  // A derived value has no change record: its row says who and when.
  values.push({
    visitKey: 'v1',
    formKey: 'bodyMeasurement',
    itemKey: 'bmi',
    value: 22.04,
    derived: true,
    updatedAt: LATER,
    updatedBy: null,
  });
  const audit: ExportAuditRow[] = values
    .filter((row) => !row.derived)
    .map((row, index) => ({
      path: `${row.visitKey}.${row.formKey}.${row.itemKey}`,
      userId: index % 3 === 0 ? 7 : 8,
      at: index % 2 === 0 ? AT : LATER,
      reason: index % 5 === 0 ? `고침 ${index} <오타>` : null,
      before: null,
      after: row.value,
    }));
  return {
    id: 1,
    screeningNumber: 'S01-001',
    siteId: 1,
    definitionVersion: null,
    values,
    audit,
    signature: { signedBy: 7, signedAt: LATER, meaning: header.signatureMeanings[0] },
    queries,
  };
}

function secondSubject(): ExportSubject {
  return {
    id: 2,
    screeningNumber: 'S02-001',
    siteId: 2,
    definitionVersion: null,
    values: [
      {
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKey: 'heartRate',
        value: 80,
        derived: false,
        updatedAt: AT,
        updatedBy: 7,
      },
    ],
    audit: [],
    signature: { signedBy: 8, signedAt: AT, meaning: { en: 'Same', ko: 'Same' } },
    queries: [],
  };
}

async function written(version: '1.3.2' | '2.0', withAudit: boolean): Promise<string> {
  const metadata = buildOdmMetadata(header.definition, {
    code: header.study.code,
    version: header.definitionVersion,
  });
  async function* batches() {
    yield [firstSubject()];
    yield [secondSubject()];
  }
  const input = {
    header,
    metadata,
    batches: batches(),
    withAudit,
    fileOid: 'ODM.TMP-2026.fixed',
    createdAt: AT,
  };
  let text = '';
  for await (const chunk of version === '1.3.2' ? writeOdm132(input) : writeOdm20(input)) text += chunk;
  return text;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-odm-writers-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** The fixture is worth pinning only if it is a valid document of its version. */
function expectValid(text: string, version: '1.3.2' | '2.0'): void {
  const file = path.join(workDir, `${version}.xml`);
  fs.writeFileSync(file, text);
  const verdict = validateOdmFile(file, version);
  expect(verdict.status, verdict.output).toBe(0);
}

describe('the ODM writers over a fixed input', () => {
  it('write the same 1.3.2 documents, byte for byte', async () => {
    const withAudit = await written('1.3.2', true);
    expect(withAudit).toContain('Value="001,099"');
    expect(withAudit).toContain('StudyEventRepeatKey="1"');
    expectValid(withAudit, '1.3.2');
    expect({ withAudit: sha256(withAudit), without: sha256(await written('1.3.2', false)) }).toEqual({
      withAudit: 'f65fcb24fd72aaba128d438b8b6a91387211e941ffb0ebbdbe8c2e278c9640c9',
      without: 'd200dc4b42e492894cd98bd7a3968f9d1e755c6e0e61c41296dc6dfcb89c7aa8',
    });
  });

  it('write the same 2.0 documents, byte for byte', async () => {
    const withAudit = await written('2.0', true);
    expect(withAudit).toContain('<Value SeqNum="2">099</Value>');
    expect(withAudit).toContain('<Query OID="Q.3"');
    expectValid(withAudit, '2.0');
    expect({ withAudit: sha256(withAudit), without: sha256(await written('2.0', false)) }).toEqual({
      withAudit: 'c08c94bf9124fdfa1ba9f41dbfd31d6b5f03310e5046cede1e9e9404d5b927f8',
      without: '160403224ccf75faf9354cf1196cfc9bc79336decb7dabacd19183a8ddf9f7b8',
    });
  });
});
