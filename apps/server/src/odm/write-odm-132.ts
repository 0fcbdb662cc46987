import { escapeXmlAttribute, odmExtensionNamespace, writeOdmStudyMetadata, xmlAttributes } from '@cdms/study';
import {
  auditRecordXml,
  type OdmVersionMarkup,
  type OdmWriteInput,
  writeOdmDocument,
} from './odm-document.ts';

/**
 * CDISC ODM 1.3.2 Snapshot: what 1.3.2 writes its own way, for odm-document.ts, which writes the
 * rest of the document alike for both versions. The Study holds the study's complete design — one
 * MetaDataVersion per definition version, with show-when, derivations and the CDMS extension — written
 * by the design's own ODM metadata export (packages/study `writeOdmStudyMetadata`), so a data export
 * and a design export of one study say the same and the import reads either back; the ClinicalData
 * refer to the version in force (the last). Validated against ../shared/odm/schema-1.3.2 plus the
 * extension's schema (packages/study/odm/odm-1.3.2-cdms.xsd) by the tests.
 */

/** The values of a multiple choice in one 1.3.2 Value: codes separated by commas. */
export const MULTIPLE_VALUE_SEPARATOR = ',';

const markup132: OdmVersionMarkup = {
  version: '1.3.2',
  namespace: 'http://www.cdisc.org/ns/odm/v1.3',
  namespaces: odmExtensionNamespace(),
  study: (header, metadata) =>
    `<Study${xmlAttributes({ OID: metadata.studyOid })}>${writeOdmStudyMetadata(header.definitionVersions)}`,
  formData: { element: 'FormData', oidAttribute: 'FormOID' },
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
