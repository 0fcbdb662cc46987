import type { LocalizedText } from '@cdms/study';
import { escapeXmlAttribute, textElement, xmlAttributes } from '@cdms/study';
import {
  auditRecordXml,
  type OdmVersionMarkup,
  type OdmWriteInput,
  rangeChecksXml,
  translatedTexts,
  writeOdmDocument,
} from './odm-document.ts';
import type { OdmItemDef } from './odm-metadata.ts';

/**
 * CDISC ODM 1.3.2 Snapshot: what 1.3.2 writes its own way, for odm-document.ts, which writes the
 * rest of the document alike for both versions. Validated against ../shared/odm/schema-1.3.2 by the
 * tests.
 */

const translated = (name: string, text: LocalizedText) => translatedTexts(name, text);

function itemDef132(itemDef: OdmItemDef): string {
  const { item } = itemDef;
  const parts: string[] = [
    `<ItemDef${xmlAttributes({
      OID: itemDef.oid,
      Name: item.key,
      DataType: itemDef.dataType,
      Length: itemDef.length,
      SignificantDigits: itemDef.significantDigits,
    })}>`,
  ];
  if (itemDef.multiple) {
    parts.push(
      translated('Description', {
        ko: `여러 코드를 쉼표로 구분합니다 (${itemDef.codeListOid ?? ''}).`,
        en: `Several codes separated by commas (${itemDef.codeListOid ?? ''}).`,
      }),
    );
  }
  parts.push(translated('Question', item.label));
  if (itemDef.unitOid)
    parts.push(`<MeasurementUnitRef${xmlAttributes({ MeasurementUnitOID: itemDef.unitOid })}/>`);
  parts.push(rangeChecksXml(itemDef));
  // A multiple choice's value is a list of codes, not one code of the list: no CodeListRef.
  if (itemDef.codeListOid && !itemDef.multiple)
    parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: itemDef.codeListOid })}/>`);
  parts.push('</ItemDef>');
  return parts.join('');
}

/** The values of a multiple choice in one 1.3.2 Value: codes separated by commas. */
export const MULTIPLE_VALUE_SEPARATOR = ',';

const markup132: OdmVersionMarkup = {
  version: '1.3.2',
  namespace: 'http://www.cdisc.org/ns/odm/v1.3',
  translated,
  studyStart: (header, metadata) => {
    const globalVariables = `<GlobalVariables>${textElement('StudyName', header.study.code)}${textElement(
      'StudyDescription',
      header.study.title,
    )}${textElement('ProtocolName', header.study.code)}</GlobalVariables>`;
    const units =
      metadata.units.length > 0
        ? `<BasicDefinitions>${metadata.units
            .map(
              (unit) =>
                `<MeasurementUnit${xmlAttributes({ OID: unit.oid, Name: unit.symbol })}><Symbol>${textElement('TranslatedText', unit.symbol)}</Symbol></MeasurementUnit>`,
            )
            .join('')}</BasicDefinitions>`
        : '';
    return `<Study${xmlAttributes({ OID: metadata.studyOid })}>${globalVariables}${units}`;
  },
  protocol: true,
  form: {
    def: 'FormDef',
    ref: 'FormRef',
    data: 'FormData',
    oidAttribute: 'FormOID',
    attributes: (form) => ({ OID: form.oid, Name: form.key, Repeating: 'No' }),
  },
  itemGroupAttributes: (group) => ({
    OID: group.oid,
    Name: `${group.formKey}.${group.sectionKey}`,
    Repeating: group.repeatingKey ? 'Yes' : 'No',
  }),
  itemDef: itemDef132,
  signature: 'first',
  itemData: (item) => {
    // Written out rather than through xmlAttributes: this runs once per value.
    const attributes = ` ItemOID="${escapeXmlAttribute(item.oid)}" Value="${escapeXmlAttribute(item.values.join(MULTIPLE_VALUE_SEPARATOR))}"`;
    return item.audit
      ? `<ItemData${attributes}>${auditRecordXml(item.audit)}</ItemData>`
      : `<ItemData${attributes}/>`;
  },
  // 1.3.2 has no element for a query (the export reads none for it).
  queries: () => '',
};

export function writeOdm132(input: OdmWriteInput): AsyncGenerator<string> {
  return writeOdmDocument(input, markup132);
}
