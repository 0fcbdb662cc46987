import { type StudyDefinition, tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { buildOdmMetadata } from './odm-metadata.ts';

const study = { code: 'TMP-2026', version: '1.0.0' };

describe('ODM metadata of a study definition', () => {
  const metadata = buildOdmMetadata(tmPerforationStudy, study);

  it('names everything with readable, unique OIDs made from the keys', () => {
    const all = [
      ...metadata.events.map((event) => event.oid),
      ...metadata.forms.map((form) => form.oid),
      ...metadata.itemGroups.map((group) => group.oid),
      ...metadata.items.map((item) => item.oid),
      ...metadata.codeLists.map((list) => list.oid),
      ...metadata.units.map((unit) => unit.oid),
    ];
    expect(new Set(all).size).toBe(all.length);
    for (const oid of all) expect(oid).toMatch(/^(SE|F|IG|I|CL|MU)\.[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(metadata.events.map((event) => event.oid)).toContain('SE.v1');
    expect(metadata.items.map((item) => item.oid)).toContain('I.vitalSigns.bloodPressureSystolic');
    expect(metadata.units.find((unit) => unit.symbol === 'kg/m²')?.oid).toBe('MU.kg_m');
    // The same definition gives the same OIDs (stable across exports).
    expect(
      JSON.stringify(buildOdmMetadata(structuredClone(tmPerforationStudy), study).items.map((i) => i.oid)),
    ).toBe(JSON.stringify(metadata.items.map((item) => item.oid)));
  });

  it('describes every item of every visit layout, and places every stored key', () => {
    for (const visit of tmPerforationStudy.visits) {
      for (const formKey of visit.forms) {
        const form = tmPerforationStudy.forms.find((candidate) => candidate.key === formKey);
        const sections =
          form?.variants?.find((variant) => variant.visits.includes(visit.key))?.sections ??
          form?.sections ??
          [];
        for (const section of sections) {
          const key = section.repeating?.key;
          if (key !== undefined) expect(metadata.placeOf(visit.key, formKey, key)?.kind).toBe('rows');
          else
            for (const item of section.items)
              expect(metadata.placeOf(visit.key, formKey, item.key)?.kind).toBe('item');
        }
      }
    }
  });

  it('maps types, decimals, units, ranges and code lists (yes/no included)', () => {
    const item = (oid: string) => metadata.itemByOid.get(oid);
    expect(item('I.bodyMeasurement.height')).toMatchObject({
      dataType: 'float',
      significantDigits: 1,
      unitOid: 'MU.cm',
    });
    expect(item('I.demographicInfo.birthDate')?.dataType).toBe('date');
    expect(item('I.demographicInfo.gender')?.codeListOid).toBe('CL.gender');
    const yesNo = metadata.items.find((candidate) => candidate.item.type === 'yesNo');
    expect(yesNo?.codeListOid).toBe('CL.yesNo');
    expect(
      metadata.codeLists.find((list) => list.oid === 'CL.yesNo')?.codes.map((code) => code.code),
    ).toEqual(['Y', 'N']);
  });

  it('numbers unit symbols that would share an OID', () => {
    const definition = structuredClone(tmPerforationStudy) as StudyDefinition;
    const items = definition.forms[0]?.sections[0]?.items ?? [];
    items.push(
      { key: 'cubic', type: 'decimal', label: { ko: '가', en: 'a' }, unit: 'kg/m³' },
      { key: 'square', type: 'decimal', label: { ko: '나', en: 'b' }, unit: 'kg/m²' },
    );
    const units = buildOdmMetadata(definition, study).units;
    const oidsOf = (symbol: string) => units.find((unit) => unit.symbol === symbol)?.oid;
    expect(oidsOf('kg/m²')).not.toBe(oidsOf('kg/m³'));
    expect(new Set(units.map((unit) => unit.oid)).size).toBe(units.length);
  });
});
