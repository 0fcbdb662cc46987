import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ItemDefinition,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../../model/study-definition.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { listOdmMetaDataVersions } from './list-odm-metadata-versions.ts';
import { CDMS_ODM_NAMESPACE } from './odm-metadata-names.ts';
import { readOdmMetadata } from './read-odm-metadata.ts';
import { odmDataTypeOf, writeOdmMetadata, writeOdmMetadataVersions } from './write-odm-metadata.ts';

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

/** The next version of a demo: the minor number up, and an item with a unit the first version lacks. */
function nextVersion(definition: StudyDefinition): StudyDefinition {
  const [major, minor] = definition.version.split('.').map(Number);
  const next = structuredClone(definition);
  next.version = `${major}.${(minor ?? 0) + 1}.0`;
  next.forms[0]?.sections[0]?.items.push({
    key: 'addedInNextVersion',
    type: 'decimal',
    label: { ko: '새 항목', en: 'New item' },
    unit: 'nL/s',
    decimals: 1,
  });
  return studyDefinitionSchema.parse(next);
}

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

  it('writes a character XML cannot carry as U+FFFD, never a file no parser reads', () => {
    const definition = loadDefinition('hear-followup.json');
    const form = definition.forms[0];
    if (!form) throw new Error('no form');
    form.label = { ko: `양식\u0001`, en: `Form\u0001` };
    const read = readOdmMetadata(writeOdmMetadata(definition, { creationDateTime: FIXED_TIME }), {
      studyKey: definition.key,
      studyLabel: definition.label,
      language: 'ko',
    });
    expect(read.problems).toEqual([]);
    expect(read.definition?.forms[0]?.label).toEqual({ ko: '양식\uFFFD', en: 'Form\uFFFD' });
  });

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

describe('several definition versions in one file', () => {
  for (const name of demos) {
    it(`gives back each version of ${name}, the last by default`, () => {
      const first = loadDefinition(name);
      const second = nextVersion(first);
      const xml = writeOdmMetadataVersions([first, second], { creationDateTime: FIXED_TIME });
      expect(listOdmMetaDataVersions(xml)).toEqual([
        { oid: `MDV.${first.version}`, name: `${first.label.en} ${first.version}` },
        { oid: `MDV.${second.version}`, name: `${second.label.en} ${second.version}` },
      ]);
      const options = { studyKey: first.key, studyLabel: first.label, language: 'ko' as const };
      for (const version of [first, second]) {
        const read = readOdmMetadata(xml, { ...options, metaDataVersionOid: `MDV.${version.version}` });
        expect(read.problems).toEqual([]);
        expect(read.definition).toStrictEqual(version);
      }
      const newest = readOdmMetadata(xml, options);
      expect(newest.definition).toStrictEqual(second);
      expect(messages(newest.problems, 'note')).toEqual([
        `The file holds 2 metadata versions; the last (MDV.${second.version}) is read.`,
      ]);
      // One BasicDefinitions with the units of both versions; the first alone has not the new one.
      expect(xml.match(/<BasicDefinitions>/g)).toHaveLength(1);
      const newUnit = '<MeasurementUnit OID="MU.nL_s" Name="nL/s">';
      expect(xml.includes(newUnit)).toBe(true);
      expect(writeOdmMetadata(first, { creationDateTime: FIXED_TIME }).includes(newUnit)).toBe(false);
    });
  }

  it('writes one version exactly as writeOdmMetadata does', () => {
    const definition = loadDefinition('hear-followup.json');
    const options = { creationDateTime: FIXED_TIME };
    expect(writeOdmMetadataVersions([definition], options)).toBe(writeOdmMetadata(definition, options));
    expect(writeOdmMetadata(definition, options)).toContain(
      `<MetaDataVersion OID="MDV.${definition.version}" Name="${definition.label.en} ${definition.version}">`,
    );
  });

  it('refuses to write no version, a version twice, or versions of two studies', () => {
    const definition = loadDefinition('hear-followup.json');
    expect(() => writeOdmMetadataVersions([])).toThrow(/no definition version/);
    expect(() => writeOdmMetadataVersions([definition, definition])).toThrow(/twice/);
    expect(() =>
      writeOdmMetadataVersions([definition, { ...nextVersion(definition), key: 'other' }]),
    ).toThrow(/one study/);
  });

  it('says which versions there are when the one asked for is not in the file', () => {
    const definition = loadDefinition('hear-followup.json');
    const xml = writeOdmMetadataVersions([definition, nextVersion(definition)]);
    const read = readOdmMetadata(xml, { ...importOptions, metaDataVersionOid: 'MDV.9.9.9' });
    expect(read.definition).toBeNull();
    expect(errors(read.problems)[0]?.message.en).toBe(
      'The file holds no metadata version MDV.9.9.9 (it holds MDV.1.0.0, MDV.1.1.0).',
    );
  });

  it('lists the versions of other systems’ files, and none of a refused file', () => {
    expect(listOdmMetaDataVersions(fixture('openclinica-study.xml'))).toEqual([
      { oid: 'v1.0.0', name: 'MetaDataVersion_v1.0.0' },
    ]);
    const doctype = `<?xml version="1.0"?><!DOCTYPE ODM SYSTEM "file:///etc/passwd"><ODM xmlns="http://www.cdisc.org/ns/odm/v1.3"/>`;
    expect(listOdmMetaDataVersions(doctype)).toEqual([]);
    expect(listOdmMetaDataVersions('not xml <')).toEqual([]);
    expect(listOdmMetaDataVersions('<ODM xmlns="http://www.cdisc.org/ns/odm/v2.0"/>')).toEqual([]);
  });
});

/** ODM's DataTypes as the reader takes them back. */
const TYPE_OF_PLAIN_DATA_TYPE: Record<string, ItemDefinition['type']> = {
  text: 'text',
  integer: 'integer',
  float: 'decimal',
  date: 'date',
  time: 'time',
  boolean: 'checkbox',
};

/** What plain ODM says of an item, as the reader gives it back (absent fields left out). */
function whatOdmSays(item: ItemDefinition) {
  const codeList = item.type === 'yesNo' ? 'yesNo' : item.type === 'singleChoice' ? item.codeList : undefined;
  return JSON.parse(
    JSON.stringify({
      key: item.key,
      type: codeList ? 'singleChoice' : TYPE_OF_PLAIN_DATA_TYPE[odmDataTypeOf(item)],
      label: item.label,
      unit: item.unit,
      min: item.min,
      max: item.max,
      hardMin: item.hardMin,
      hardMax: item.hardMax,
      codeList,
      required: item.required === true ? true : undefined,
      showWhen: item.showWhen,
      derive: item.derive,
    }),
  );
}

describe('plain ODM (extensions: false)', () => {
  for (const name of demos) {
    it(`writes no cdms element or attribute for ${name}, and reads back what ODM says`, () => {
      const definition = loadDefinition(name);
      const xml = writeOdmMetadata(definition, { creationDateTime: FIXED_TIME, extensions: false });
      expect(xml).not.toContain('cdms:');
      expect(xml).not.toContain(CDMS_ODM_NAMESPACE);
      const read = readOdmMetadata(xml, { ...importOptions, language: 'ko' });
      expect(errors(read.problems)).toEqual([]);
      expect(messages(read.problems, 'warning')).toEqual([]);
      expect(messages(read.problems, 'note')).toHaveLength(1);
      expect(messages(read.problems, 'note')[0]).toContain('plain ODM');
      const plain = read.definition as StudyDefinition;
      expect(plain.version).toBe(definition.version);
      // Visits keep keys, labels, groups (Category) and forms; windows are the extension's.
      expect(plain.visits).toEqual(definition.visits.map(({ window: _window, ...visit }) => visit));
      expect(plain.unscheduledVisit).toEqual(definition.unscheduledVisit);
      const yesNo = plain.codeLists.filter((list) => list.key === 'yesNo');
      expect(plain.codeLists).toEqual([...definition.codeLists, ...yesNo]);
      expect(plain.forms.map((form) => [form.key, form.label])).toEqual(
        definition.forms.map((form) => [form.key, form.label]),
      );
      for (const form of definition.forms.filter((candidate) => !candidate.variants)) {
        const plainForm = plain.forms.find((candidate) => candidate.key === form.key);
        expect(plainForm?.sections.map((section) => [section.key, section.label, section.showWhen])).toEqual(
          form.sections.map((section) => [section.key, section.label, section.showWhen]),
        );
        const plainItems = plainForm?.sections.flatMap((section) => section.items) ?? [];
        const items = form.sections.flatMap((section) => section.items);
        expect(plainItems.map(whatOdmSays)).toEqual(items.map(whatOdmSays));
      }
    });
  }
});

describe('plain ODM of several versions', () => {
  it('reads each version with its version number from the OID', () => {
    const first = loadDefinition('hear-followup.json');
    const second = nextVersion(first);
    const xml = writeOdmMetadataVersions([first, second], { extensions: false });
    const itemKeys = (definition: StudyDefinition | null) =>
      definition?.forms.flatMap((form) =>
        form.sections.flatMap((section) => section.items.map((item) => item.key)),
      );
    const older = readOdmMetadata(xml, { ...importOptions, metaDataVersionOid: `MDV.${first.version}` });
    expect(errors(older.problems)).toEqual([]);
    expect(older.definition?.version).toBe(first.version);
    expect(itemKeys(older.definition)).not.toContain('addedInNextVersion');
    const newest = readOdmMetadata(xml, importOptions);
    expect(newest.definition?.version).toBe(second.version);
    expect(itemKeys(newest.definition)).toContain('addedInNextVersion');
  });
});

// xmllint checks the written files against the official ODM 1.3.2 schema plus ours (the wrapper
// redefines ODM's extension groups; see packages/study/odm/odm-1.3.2-cdms.xsd).
const hasXmllint = spawnSync('xmllint', ['--version']).error === undefined;
const wrapperSchema = path.join(packageRoot, 'odm', 'odm-1.3.2-cdms.xsd');
/** The bare official schema (the vendored copy the wrapper redefines), for plain files. */
const officialSchema = path.resolve(packageRoot, '../../vendor/cdisc-odm/schema-1.3.2/ODM1-3-2.xsd');
function xmllint(xml: string, schema = wrapperSchema) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'odm-metadata-'));
  const file = path.join(directory, 'metadata.xml');
  fs.writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', schema, file], {
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

  for (const name of demos) {
    it(`validates a file of two versions of ${name}`, () => {
      const definition = loadDefinition(name);
      const xml = writeOdmMetadataVersions([definition, nextVersion(definition)], {
        creationDateTime: FIXED_TIME,
      });
      const result = xmllint(xml);
      expect(result.output).toContain('validates');
      expect(result.status).toBe(0);
    });

    it(`validates plain ODM of ${name}, one and two versions, against the bare ODM 1.3.2 schema`, () => {
      const definition = loadDefinition(name);
      const options = { creationDateTime: FIXED_TIME, extensions: false };
      for (const xml of [
        writeOdmMetadata(definition, options),
        writeOdmMetadataVersions([definition, nextVersion(definition)], options),
      ]) {
        const result = xmllint(xml, officialSchema);
        expect(result.output).toContain('validates');
        expect(result.status).toBe(0);
      }
    });
  }

  it('is really checked against the bare schema (the cdms extension fails there)', () => {
    const xml = writeOdmMetadata(loadDefinition('hear-followup.json'), { creationDateTime: FIXED_TIME });
    expect(xmllint(xml, officialSchema).status).not.toBe(0);
  });

  it('is really checked against the extension schema (a wrong visit group fails)', () => {
    const xml = writeOdmMetadata(loadDefinition('hear-followup.json'), { creationDateTime: FIXED_TIME });
    const result = xmllint(xml.replace(/ Group="[a-z_]+"/, ' Group="sometimes"'));
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
      'Vendor extension urn:vendor (prefix xyz) ignored: attributes hidden.',
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
