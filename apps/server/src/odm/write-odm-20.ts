import type { LocalizedText } from '@cdms/study';
import { textElement, xmlAttributes } from '@cdms/study';
import type { ExportQuery } from './load-export-batch.ts';
import { userOidOf } from './odm-clinical-tree.ts';
import {
  auditRecordXml,
  bilingualText,
  type OdmVersionMarkup,
  type OdmWriteInput,
  rangeChecksXml,
  translatedTexts,
  writeOdmDocument,
} from './odm-document.ts';
import { type OdmItemDef, oids } from './odm-metadata.ts';

/**
 * CDISC ODM 2.0 Snapshot: what 2.0 writes its own way, for odm-document.ts, which writes the rest of
 * the document alike for both versions, with the same content as 1.3.2 in 2.0's shape: there is no
 * FormDef — a form is an ItemGroupDef of Type "Form" whose ItemGroupRefs are its sections (Type
 * "Section"), and a StudyEventDef refers to its forms with ItemGroupRef; in the data a form is an
 * ItemGroupData holding its sections' ItemGroupData; ItemData carries Value elements (one per code of
 * a multiple choice); TranslatedText has a Type. 2.0 adds queries: each query is a Query element on
 * the value it concerns (else on its form, else on the subject), its thread one AuditRecord per
 * message (author, site, time, and the message as ReasonForChange).
 * Validated against ../shared/odm/schema-2.0 by the tests.
 */

const translated = (name: string, text: LocalizedText) => translatedTexts(name, text, { Type: 'text/plain' });

function itemDef20(itemDef: OdmItemDef): string {
  const { item } = itemDef;
  // 2.0 has no SignificantDigits: the decimals become a display format (`5.1` = one decimal).
  const displayFormat =
    itemDef.significantDigits !== undefined
      ? `${Math.max(itemDef.significantDigits + 2, 1)}.${itemDef.significantDigits}`
      : undefined;
  const parts: string[] = [
    `<ItemDef${xmlAttributes({
      OID: itemDef.oid,
      Name: item.key,
      DataType: itemDef.dataType === 'float' ? 'decimal' : itemDef.dataType,
      Length: itemDef.length,
      DisplayFormat: displayFormat,
    })}>`,
  ];
  // 2.0 dropped MeasurementUnit from ItemDef; the unit travels in the description.
  if (item.unit !== undefined)
    parts.push(translated('Description', { ko: `단위: ${item.unit}`, en: `Unit: ${item.unit}` }));
  parts.push(translated('Question', item.label));
  parts.push(rangeChecksXml(itemDef));
  // In 2.0 an ItemData may hold several Values, so a multiple choice keeps its code list.
  if (itemDef.codeListOid) parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: itemDef.codeListOid })}/>`);
  parts.push('</ItemDef>');
  return parts.join('');
}

const QUERY_STATES = {
  open: 'Open',
  answered: 'Answered',
  closed: 'Closed',
  cancelled: 'Cancelled',
} as const;

function queryXml(thread: ExportQuery, locationOid: string): string {
  const { query, messages } = thread;
  // Who raised it: the system, or the monitor or data manager by the role they acted in.
  const openerRole = messages.find((message) => message.kind === 'opened')?.author_role;
  const source =
    query.kind === 'system' ? 'System' : openerRole === 'DM' ? 'Data Management' : 'Site Monitor';
  const parts = [
    `<Query${xmlAttributes({
      OID: oids.query(query.id),
      Source: source,
      Target: query.item_path || `${query.visit_key}.${query.form_key}`,
      Type: query.kind === 'system' ? 'System' : 'Manual',
      State: QUERY_STATES[query.status],
      LastUpdateDatetime: query.last_message_at.toISOString(),
    })}>`,
    textElement('Value', bilingualText(query.message)),
  ];
  for (const message of messages) {
    const proposed =
      message.proposed_value === null || message.proposed_value === undefined
        ? ''
        : ` (proposed value: ${String(message.proposed_value)})`;
    parts.push(
      auditRecordXml({
        userOid: userOidOf(message.author_user_id),
        locationOid,
        dateTimeStamp: message.created_at.toISOString(),
        reason: `[${message.kind}] ${bilingualText(message.text)}${proposed}`,
      }),
    );
  }
  parts.push('</Query>');
  return parts.join('');
}

const queriesXml = (threads: ExportQuery[], locationOid: string) =>
  threads.map((thread) => queryXml(thread, locationOid)).join('');

const markup20: OdmVersionMarkup = {
  version: '2.0',
  namespace: 'http://www.cdisc.org/ns/odm/v2.0',
  translated,
  studyStart: (header, metadata) =>
    `<Study${xmlAttributes({ OID: metadata.studyOid, StudyName: header.study.code, ProtocolName: header.study.code })}>${translated(
      'Description',
      { ko: header.study.title, en: header.study.title },
    )}`,
  protocol: false,
  form: {
    def: 'ItemGroupDef',
    ref: 'ItemGroupRef',
    data: 'ItemGroupData',
    oidAttribute: 'ItemGroupOID',
    attributes: (form) => ({ OID: form.oid, Name: form.key, Repeating: 'No', Type: 'Form' }),
  },
  itemGroupAttributes: (group) => ({
    OID: group.oid,
    Name: `${group.formKey}.${group.sectionKey}`,
    Repeating: group.repeatingKey ? 'Dynamic' : 'No',
    Type: 'Section',
  }),
  itemDef: itemDef20,
  signature: 'last',
  itemData: (item, locationOid) => {
    const values =
      item.values.length === 1
        ? textElement('Value', item.values[0] ?? '')
        : item.values.map((value, index) => textElement('Value', value, { SeqNum: index + 1 })).join('');
    return `<ItemData${xmlAttributes({ ItemOID: item.oid })}>${values}${item.audit ? auditRecordXml(item.audit) : ''}${queriesXml(item.queries, locationOid)}</ItemData>`;
  },
  queries: queriesXml,
};

export function writeOdm20(input: OdmWriteInput): AsyncGenerator<string> {
  return writeOdmDocument(input, markup20);
}
