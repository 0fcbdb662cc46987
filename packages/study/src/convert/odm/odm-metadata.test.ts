import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type StudyDefinition, studyDefinitionSchema } from '../../model/study-definition.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { CDMS_ODM_NAMESPACE } from './odm-metadata-names.ts';
import { readOdmMetadata } from './read-odm-metadata.ts';
import { writeOdmMetadata } from './write-odm-metadata.ts';

const packageRoot = path.resolve(import.meta.dirname, '../../..');
const loadDefinition = (name: string): StudyDefinition =>
  studyDefinitionSchema.parse(
    JSON.parse(fs.readFileSync(path.join(packageRoot, 'definitions', name), 'utf8')),
  );
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const demos = ['tm-perforation.json', 'hear-followup.json'];
const importOptions = {
  studyKey: 'pilot',
  studyLabel: { ko: '예비 시험', en: 'Pilot study' },
  language: 'en' as const,
};
const FIXED_TIME = '2026-12-07T00:00:00Z';

const errors = (problems: ImportProblem[]) => problems.filter((problem) => problem.severity === 'error');
const messages = (problems: ImportProblem[], severity: ImportProblem['severity']) =>
  problems.filter((problem) => problem.severity === severity).map((problem) => problem.message.en);

/** A minimal ODM 1.3.2 metadata document around the given MetaDataVersion content. */
function odmDocument(metaDataVersion: string, extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" ${extra} FileType="Snapshot" FileOID="F.1" CreationDateTime="${FIXED_TIME}" ODMVersion="1.3.2">
<Study OID="S.1"><GlobalVariables><StudyName>s</StudyName><StudyDescription>s</StudyDescription><ProtocolName>s</ProtocolName></GlobalVariables>
${metaDataVersion}
</Study></ODM>`;
}

describe('writeOdmMetadata → readOdmMetadata', () => {
  for (const name of demos) {
    it(`gives back ${name} exactly`, () => {
      const definition = loadDefinition(name);
      const xml = writeOdmMetadata(definition, { creationDateTime: FIXED_TIME });
      const read = readOdmMetadata(xml, {
        studyKey: definition.key,
        studyLabel: definition.label,
        language: 'ko',
      });
      expect(read.problems).toEqual([]);
      expect(read.definition).toStrictEqual(definition);
    });
  }

  it('gives back the corners of the model: flags ODM has no place for, special characters, a hard soft range', () => {
    const tricky = { ko: '줄\n바꿈 <&> "따옴표" \t탭', en: "Line\nbreak <&> 'quotes' \ttab" };
    const definition = studyDefinitionSchema.parse({
      key: 'corners',
      version: '2.1.0',
      label: { ko: '모서리', en: 'Corners' },
      codeLists: [
        {
          key: 'colour',
          codes: [
            { code: 'r&d', label: tricky },
            { code: 'b', label: { ko: '파랑', en: 'Blue' } },
          ],
        },
      ],
      visits: [{ key: 'v1', label: tricky, group: 'baseline', forms: ['a'] }],
      forms: [
        {
          key: 'a',
          label: tricky,
          sections: [
            {
              key: 'main',
              label: tricky,
              help: tricky,
              items: [
                {
                  key: 'n',
                  type: 'integer',
                  label: tricky,
                  required: false,
                  decimals: 0,
                  min: 1,
                  max: 9,
                  rangeSeverity: 'hard',
                  hardMin: 0,
                  hardMax: 10,
                },
                { key: 'd', type: 'decimal', label: tricky, decimals: 2, unit: 'kg/m²', readOnly: true },
                { key: 'colours', type: 'multipleChoice', label: tricky, codeList: 'colour', maxLength: 20 },
                {
                  key: 't',
                  type: 'text',
                  label: tricky,
                  maxLength: 5,
                  pattern: '^[A-Z]{2}\\d$',
                  personalData: true,
                  critical: true,
                },
                { key: 'c', type: 'checkbox', label: tricky, maxLength: 3 },
                {
                  key: 'when',
                  type: 'date',
                  label: tricky,
                  notFuture: true,
                  requiredWhen: { op: 'eq', args: [{ ref: 'n' }, 3] },
                },
              ],
            },
            {
              key: 'rows',
              label: tricky,
              showWhen: { op: 'gt', args: [{ ref: 'n' }, 1] },
              repeating: { key: 'rowList', rowsRequired: false, maxRows: 4 },
              items: [
                { key: 'x', type: 'text', label: tricky, showWhen: { op: 'notEmpty', args: [{ ref: 'n' }] } },
              ],
            },
          ],
        },
      ],
    });
    const xml = writeOdmMetadata(definition, { creationDateTime: FIXED_TIME });
    const read = readOdmMetadata(xml, { studyKey: 'corners', studyLabel: definition.label, language: 'en' });
    expect(read.problems).toEqual([]);
    expect(read.definition).toStrictEqual(definition);
    if (hasXmllint) expect(xmllint(xml).status).toBe(0);
  });

  it('writes ODM 1.3.2 metadata with the protocol, show-when negated and derivations in cdms JSON', () => {
    const definition = loadDefinition('hear-followup.json');
    const xml = writeOdmMetadata(definition, { creationDateTime: FIXED_TIME, fileOid: 'F.test' });
    expect(xml).toContain('FileType="Snapshot"');
    expect(xml).toContain('Granularity="Metadata"');
    expect(xml).toContain('ODMVersion="1.3.2"');
    expect(xml).toContain(`xmlns:cdms="${CDMS_ODM_NAMESPACE}"`);
    expect(xml).toContain(`<StudyEventRef StudyEventOID="SE.${definition.visits[0]?.key}" OrderNumber="1"`);
    expect(xml).toContain(
      '<StudyEventDef OID="SE.unscheduled" Name="unscheduled" Repeating="Yes" Type="Unscheduled">',
    );
    expect(xml).toContain('<FormalExpression Context="cdms">{"op":"not","args":[');
    expect(xml).toContain('<MethodDef OID="MT.I.');
    expect(xml).toContain('<TranslatedText xml:lang="ko">');
  });
});

// xmllint checks the written files against the official ODM 1.3.2 schema plus ours (the wrapper
// redefines ODM's extension groups; see packages/study/odm/odm-1.3.2-cdms.xsd).
const hasXmllint = spawnSync('xmllint', ['--version']).error === undefined;
const wrapperSchema = path.join(packageRoot, 'odm', 'odm-1.3.2-cdms.xsd');
function xmllint(xml: string) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'odm-metadata-'));
  const file = path.join(directory, 'metadata.xml');
  fs.writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', wrapperSchema, file], {
    encoding: 'utf8',
  });
  fs.rmSync(directory, { recursive: true, force: true });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

describe.runIf(hasXmllint)('the written metadata against ODM 1.3.2 + the cdms extension schema', () => {
  for (const name of demos) {
    it(`validates for ${name}`, () => {
      const result = xmllint(writeOdmMetadata(loadDefinition(name), { creationDateTime: FIXED_TIME }));
      expect(result.output).toContain('validates');
      expect(result.status).toBe(0);
    });
  }

  it('is really checked against the extension schema (a wrong visit group fails)', () => {
    const xml = writeOdmMetadata(loadDefinition('hear-followup.json'), { creationDateTime: FIXED_TIME });
    const result = xmllint(xml.replace(/Group="[a-z_]+"/, 'Group="sometimes"'));
    expect(result.status).not.toBe(0);
  });
});

describe('readOdmMetadata refuses what is not ODM metadata', () => {
  it('refuses a DOCTYPE with entities (billion laughs) before parsing', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3">&lol2;</ODM>`;
    const read = readOdmMetadata(xml, importOptions);
    expect(read.definition).toBeNull();
    expect(errors(read.problems)).toHaveLength(1);
    expect(read.problems[0]?.message.en).toContain('DOCTYPE');
    expect(read.problems[0]?.line).toBe(2);
  });

  it('refuses an external entity', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE ODM SYSTEM "file:///etc/passwd"><ODM xmlns="http://www.cdisc.org/ns/odm/v1.3"/>`;
    const read = readOdmMetadata(xml, importOptions);
    expect(read.definition).toBeNull();
    expect(errors(read.problems)[0]?.message.ko).toContain('DOCTYPE');
  });

  it('refuses text that is not XML, with where it breaks', () => {
    const read = readOdmMetadata('Variable / Field Name,Form Name\nrecord_id,demographics', importOptions);
    expect(read.definition).toBeNull();
    expect(errors(read.problems)[0]?.message.en).toMatch(/Not well-formed XML/);
    const broken = readOdmMetadata(
      '<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3">\n<Study></ODM>',
      importOptions,
    );
    expect(errors(broken.problems)[0]?.line).toBe(2);
  });

  it('refuses XML that is not ODM 1.3, and says so for ODM 2.0', () => {
    const html = readOdmMetadata('<html><body>hello</body></html>', importOptions);
    expect(errors(html.problems)[0]?.message.en).toContain('Not a CDISC ODM 1.3 document');
    const odm2 = readOdmMetadata('<ODM xmlns="http://www.cdisc.org/ns/odm/v2.0"/>', importOptions);
    expect(errors(odm2.problems)[0]?.message.en).toContain('ODM 2.0');
  });

  it('refuses a clinical-data-only file (no MetaDataVersion) clearly', () => {
    const xml = `<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" FileType="Snapshot" FileOID="F" CreationDateTime="${FIXED_TIME}">
<Study OID="S.1"><GlobalVariables><StudyName>s</StudyName><StudyDescription>s</StudyDescription><ProtocolName>s</ProtocolName></GlobalVariables></Study>
<ClinicalData StudyOID="S.1" MetaDataVersionOID="MDV.1"><SubjectData SubjectKey="001"/></ClinicalData></ODM>`;
    const read = readOdmMetadata(xml, importOptions);
    expect(read.definition).toBeNull();
    expect(errors(read.problems)[0]?.message.en).toContain('clinical data only');
  });
});

describe('readOdmMetadata of other systems’ ODM', () => {
  it('reads a REDCap project: instruments, sections, choices, ranges; redcap: listed as a note', () => {
    const read = readOdmMetadata(fixture('redcap-project.xml'), importOptions);
    expect(errors(read.problems)).toEqual([]);
    const definition = read.definition as StudyDefinition;
    expect(studyDefinitionSchema.safeParse(definition).success).toBe(true);
    expect(definition.key).toBe('pilot');
    expect(definition.visits.map((visit) => [visit.key, visit.forms])).toEqual([
      ['screening', ['demographics']],
      ['baseline', ['vitalSigns', 'audiometry']],
      ['followup', ['vitalSigns', 'audiometry', 'medications']],
    ]);
    expect(definition.forms.map((form) => form.key)).toEqual([
      'demographics',
      'vitalSigns',
      'audiometry',
      'medications',
    ]);
    const items = definition.forms.flatMap((form) => form.sections.flatMap((section) => section.items));
    expect(items.length).toBeGreaterThanOrEqual(20);
    const item = (key: string) => items.find((candidate) => candidate.key === key);
    expect(item('sex')).toMatchObject({
      type: 'singleChoice',
      codeList: 'sex',
      display: 'radio',
      required: true,
    });
    expect(item('ethnicity')).toMatchObject({
      type: 'singleChoice',
      codeList: 'ethnicity',
      display: 'select',
    });
    expect(item('weight')).toMatchObject({ type: 'decimal', min: 30, max: 200 });
    expect(item('dob')).toMatchObject({ type: 'date', label: { ko: 'Date of birth', en: 'Date of birth' } });
    expect(item('vsTime')?.type).toBe('time');
    expect(definition.codeLists.find((list) => list.key === 'sex')?.codes).toEqual([
      { code: '1', label: { ko: 'Female', en: 'Female' } },
      { code: '2', label: { ko: 'Male', en: 'Male' } },
    ]);
    const medications = definition.forms.find((form) => form.key === 'medications');
    expect(medications?.sections[0]?.repeating).toEqual({ key: 'medNameRows' });
    const vendorNotes = messages(read.problems, 'note').filter((message) =>
      message.startsWith('Vendor extension'),
    );
    expect(vendorNotes).toHaveLength(1);
    expect(vendorNotes[0]).toContain('https://projectredcap.org');
    expect(vendorNotes[0]).toContain('RepeatingInstrumentsAndEvents');
    expect(messages(read.problems, 'note').some((message) => message.includes('one language only'))).toBe(
      true,
    );
  });

  it('reads an OpenClinica study: CRFs, units, hard and soft ranges, an unscheduled event; both OC namespaces listed', () => {
    const read = readOdmMetadata(fixture('openclinica-study.xml'), importOptions);
    expect(errors(read.problems)).toEqual([]);
    const definition = read.definition as StudyDefinition;
    expect(studyDefinitionSchema.safeParse(definition).success).toBe(true);
    expect(definition.visits.map((visit) => visit.key)).toEqual(['screening', 'week4']);
    expect(definition.unscheduledVisit).toEqual({
      label: { ko: 'Adverse event', en: 'Adverse event' },
      forms: ['conmeds'],
    });
    expect(definition.forms.map((form) => form.key)).toEqual([
      'demographics',
      'vitals',
      'audiogram',
      'conmeds',
    ]);
    const items = definition.forms.flatMap((form) => form.sections.flatMap((section) => section.items));
    expect(items).toHaveLength(22);
    const item = (key: string) => items.find((candidate) => candidate.key === key);
    expect(item('WEIGHT')).toMatchObject({
      type: 'decimal',
      unit: 'kg',
      decimals: 1,
      hardMin: 20,
      hardMax: 300,
    });
    expect(item('HEIGHT')).toMatchObject({ type: 'integer', unit: 'cm', min: 100 });
    expect(item('SYSBP')).toMatchObject({ unit: 'mmHg', min: 80, max: 200 });
    expect(item('AC500')).toMatchObject({ unit: 'dB HL', hardMin: -10, hardMax: 120 });
    expect(item('SMOKER')).toMatchObject({ type: 'singleChoice', codeList: 'SMOKING' });
    expect(item('TEMP')).not.toHaveProperty('min');
    expect(item('STARTDT')?.type).toBe('text');
    expect(definition.codeLists.map((list) => list.key)).toEqual(['SEX', 'SMOKING', 'EAR', 'ROUTE']);
    const conmeds = definition.forms.find((form) => form.key === 'conmeds');
    expect(conmeds?.sections[0]?.repeating).toEqual({ key: 'conmeMedsRows' });
    const vendorNotes = messages(read.problems, 'note').filter((message) =>
      message.startsWith('Vendor extension'),
    );
    expect(vendorNotes).toHaveLength(2);
    expect(vendorNotes.join(' ')).toContain('http://www.openclinica.org/ns/odm_ext_v130/v3.1');
    expect(vendorNotes.join(' ')).toContain('ItemPresentInForm');
    expect(vendorNotes.join(' ')).toContain('http://www.openclinica.org/ns/rules/v3.1');
    expect(messages(read.problems, 'warning').some((message) => message.includes('IN 36.5 37.5'))).toBe(true);
  });

  it('keeps an item whose condition or derivation is not in our language, with a warning', () => {
    const xml = odmDocument(`<MetaDataVersion OID="MDV.1" Name="v1">
<FormDef OID="F.a" Name="a" Repeating="No"><ItemGroupRef ItemGroupOID="IG.a.main" Mandatory="No"/></FormDef>
<ItemGroupDef OID="IG.a.main" Name="main" Repeating="No">
  <ItemRef ItemOID="I.a.smoker" Mandatory="No"/>
  <ItemRef ItemOID="I.a.packs" Mandatory="No" CollectionExceptionConditionOID="C.nonsmoker"/>
  <ItemRef ItemOID="I.a.bmi" Mandatory="No" MethodOID="M.bmi"/>
</ItemGroupDef>
<ItemDef OID="I.a.smoker" Name="smoker" DataType="boolean"><Question><TranslatedText xml:lang="en">Smoker?</TranslatedText><TranslatedText xml:lang="ko">흡연자입니까?</TranslatedText></Question></ItemDef>
<ItemDef OID="I.a.packs" Name="packs" DataType="integer"><Question><TranslatedText xml:lang="en">Packs a day</TranslatedText></Question></ItemDef>
<ItemDef OID="I.a.bmi" Name="bmi" DataType="float"><Question><TranslatedText xml:lang="en">BMI</TranslatedText></Question></ItemDef>
<ConditionDef OID="C.nonsmoker" Name="non-smoker"><Description><TranslatedText>not a smoker</TranslatedText></Description><FormalExpression Context="XPath">//ItemData[@ItemOID='I.a.smoker']/@Value = 'false'</FormalExpression></ConditionDef>
<MethodDef OID="M.bmi" Name="bmi" Type="Computation"><Description><TranslatedText>BMI</TranslatedText></Description><FormalExpression Context="python">weight / height ** 2</FormalExpression></MethodDef>
</MetaDataVersion>`);
    const read = readOdmMetadata(xml, importOptions);
    expect(errors(read.problems)).toEqual([]);
    const items = read.definition?.forms[0]?.sections[0]?.items ?? [];
    expect(items.map((item) => item.key)).toEqual(['smoker', 'packs', 'bmi']);
    expect(items[0]).toMatchObject({ type: 'checkbox', label: { ko: '흡연자입니까?', en: 'Smoker?' } });
    expect(items[1]).not.toHaveProperty('showWhen');
    expect(items[2]).not.toHaveProperty('derive');
    const warnings = messages(read.problems, 'warning');
    expect(
      warnings.some((message) => message.includes('C.nonsmoker') && message.includes('not translated')),
    ).toBe(true);
    expect(warnings.some((message) => message.includes('M.bmi') && message.includes('python'))).toBe(true);
    // No events: one visit holds the forms, and a note says so.
    expect(read.definition?.visits).toEqual([
      { key: 'visit1', label: { ko: '방문 1', en: 'Visit 1' }, group: 'baseline', forms: ['a'] },
    ]);
  });

  it('reads ODM under a prefix, and lists a vendor attribute of an undeclared kind', () => {
    const xml = `<odm:ODM xmlns:odm="http://www.cdisc.org/ns/odm/v1.3" xmlns:xyz="urn:vendor" FileType="Snapshot" FileOID="F" CreationDateTime="${FIXED_TIME}">
<odm:Study OID="S"><odm:MetaDataVersion OID="M" Name="m">
<odm:FormDef OID="F.a" Name="a" Repeating="No"><odm:ItemGroupRef ItemGroupOID="IG.a.b" Mandatory="No"/></odm:FormDef>
<odm:ItemGroupDef OID="IG.a.b" Name="b" Repeating="No"><odm:ItemRef ItemOID="I.a.c" Mandatory="Yes" xyz:hidden="no"/></odm:ItemGroupDef>
<odm:ItemDef OID="I.a.c" Name="c" DataType="integer"><odm:Question><odm:TranslatedText xml:lang="ko">나이</odm:TranslatedText></odm:Question></odm:ItemDef>
</odm:MetaDataVersion></odm:Study></odm:ODM>`;
    const read = readOdmMetadata(xml, importOptions);
    expect(read.definition?.forms[0]?.sections[0]?.items).toEqual([
      { key: 'c', type: 'integer', label: { ko: '나이', en: '나이' }, required: true },
    ]);
    expect(messages(read.problems, 'note')).toContain(
      'Vendor extension urn:vendor (prefix xyz) ignored: elements -; attributes hidden.',
    );
  });

  it('reads the last of several MetaDataVersions and notes it', () => {
    const version = (oid: string, itemKey: string) => `<MetaDataVersion OID="${oid}" Name="${oid}">
<FormDef OID="F.a" Name="a" Repeating="No"><ItemGroupRef ItemGroupOID="IG.a.main" Mandatory="No"/></FormDef>
<ItemGroupDef OID="IG.a.main" Name="main" Repeating="No"><ItemRef ItemOID="I.a.x" Mandatory="No"/></ItemGroupDef>
<ItemDef OID="I.a.x" Name="${itemKey}" DataType="text"/></MetaDataVersion>`;
    const read = readOdmMetadata(
      odmDocument(version('MDV.1', 'first') + version('MDV.2', 'second')),
      importOptions,
    );
    expect(read.definition?.forms[0]?.sections[0]?.items[0]?.key).toBe('second');
    expect(messages(read.problems, 'note').some((message) => message.includes('MDV.2'))).toBe(true);
  });

  it('imports a 3,000-item ODM file', () => {
    const forms = 30;
    const itemsPerForm = 100;
    const parts: string[] = ['<MetaDataVersion OID="MDV.big" Name="big"><Protocol>'];
    parts.push('<StudyEventRef StudyEventOID="SE.v1" OrderNumber="1" Mandatory="No"/></Protocol>');
    parts.push('<StudyEventDef OID="SE.v1" Name="v1" Repeating="No" Type="Scheduled">');
    for (let form = 0; form < forms; form += 1) parts.push(`<FormRef FormOID="F.f${form}" Mandatory="No"/>`);
    parts.push('</StudyEventDef>');
    for (let form = 0; form < forms; form += 1) {
      parts.push(
        `<FormDef OID="F.f${form}" Name="f${form}" Repeating="No"><ItemGroupRef ItemGroupOID="IG.f${form}" Mandatory="No"/></FormDef>`,
      );
    }
    for (let form = 0; form < forms; form += 1) {
      parts.push(`<ItemGroupDef OID="IG.f${form}" Name="g${form}" Repeating="No">`);
      for (let item = 0; item < itemsPerForm; item += 1)
        parts.push(`<ItemRef ItemOID="I.f${form}.i${item}" OrderNumber="${item + 1}" Mandatory="No"/>`);
      parts.push('</ItemGroupDef>');
    }
    for (let form = 0; form < forms; form += 1) {
      for (let item = 0; item < itemsPerForm; item += 1) {
        const kind = item % 3;
        parts.push(
          `<ItemDef OID="I.f${form}.i${item}" Name="i${item}" DataType="${kind === 1 ? 'integer' : 'text'}"><Question><TranslatedText xml:lang="en">Item ${item}</TranslatedText><TranslatedText xml:lang="ko">항목 ${item}</TranslatedText></Question>${kind === 1 ? '<RangeCheck Comparator="GE" SoftHard="Soft"><CheckValue>0</CheckValue></RangeCheck>' : ''}${kind === 2 ? '<CodeListRef CodeListOID="CL.yn"/>' : ''}</ItemDef>`,
        );
      }
    }
    parts.push('<CodeList OID="CL.yn" Name="yn" DataType="text">');
    parts.push(
      '<CodeListItem CodedValue="Y"><Decode><TranslatedText xml:lang="en">Yes</TranslatedText><TranslatedText xml:lang="ko">예</TranslatedText></Decode></CodeListItem>',
    );
    parts.push(
      '<CodeListItem CodedValue="N"><Decode><TranslatedText xml:lang="en">No</TranslatedText><TranslatedText xml:lang="ko">아니오</TranslatedText></Decode></CodeListItem>',
    );
    parts.push('</CodeList></MetaDataVersion>');
    const read = readOdmMetadata(odmDocument(parts.join('\n')), importOptions);
    expect(errors(read.problems)).toEqual([]);
    const items =
      read.definition?.forms.flatMap((form) => form.sections.flatMap((section) => section.items)) ?? [];
    expect(items).toHaveLength(forms * itemsPerForm);
  });
});
