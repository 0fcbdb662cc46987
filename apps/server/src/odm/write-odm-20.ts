import type { LocalizedText } from '@cdms/study';
import { odmRangeChecks, textElement, xmlAttributes } from '@cdms/study';
import type { ExportQuery } from './load-export-batch.ts';
import { userOidOf } from './odm-clinical-tree.ts';
import {
  auditRecordXml,
  bilingualText,
  type OdmVersionMarkup,
  type OdmWriteInput,
  translatedTexts,
  writeOdmDocument,
} from './odm-document.ts';
import { eventType, type OdmItemDef, type OdmMetadata, oids } from './odm-metadata.ts';

/**
 * CDISC ODM 2.0 Snapshot: what 2.0 writes its own way, for odm-document.ts, which writes the rest of
 * the document alike for both versions, with the same content as 1.3.2 in 2.0's shape: there is no
 * FormDef — a form is an ItemGroupDef of Type "Form" whose ItemGroupRefs are its sections (Type
 * "Section"), and a StudyEventDef refers to its forms with ItemGroupRef; in the data a form is an
 * ItemGroupData holding its sections' ItemGroupData; ItemData carries Value elements (one per code of
 * a multiple choice); TranslatedText has a Type. 2.0 adds queries: each query is a Query element on
 * the value it concerns (else on its form, else on the subject), its thread one AuditRecord per
 * message (author, site, time, and the message as ReasonForChange).
 * The design is the structure of the version in force (events, forms, sections, items with their
 * ranges, code lists); the complete design with show-when, derivations and checks is 1.3.2's.
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
  for (const check of odmRangeChecks(item)) {
    parts.push(
      `<RangeCheck${xmlAttributes({ Comparator: check.comparator, SoftHard: check.softHard })}>${textElement('CheckValue', String(check.value))}</RangeCheck>`,
    );
  }
  // In 2.0 an ItemData may hold several Values, so a multiple choice keeps its code list.
  if (itemDef.codeListOid) parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: itemDef.codeListOid })}/>`);
  parts.push('</ItemDef>');
  return parts.join('');
}

/** The references of a definition to its parts, in order: `<ItemGroupRef ItemGroupOID=… OrderNumber=…/>`…. */
function itemGroupRefsXml(refOids: string[]): string {
  return refOids
    .map(
      (oid, index) =>
        `<ItemGroupRef${xmlAttributes({ ItemGroupOID: oid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
    )
    .join('');
}

/**
 * The version in force as a 2.0 MetaDataVersion: events referring to their forms, a form an
 * ItemGroupDef of Type "Form" referring to its sections (Type "Section", Dynamic when repeating), then
 * the items and code lists.
 */
function metaDataVersionXml(metadata: OdmMetadata): string {
  const parts: string[] = [
    `<MetaDataVersion${xmlAttributes({ OID: metadata.metaDataVersionOid, Name: `${metadata.studyCode} ${metadata.version}` })}>`,
  ];
  for (const event of metadata.events) {
    parts.push(
      `<StudyEventDef${xmlAttributes({ OID: event.oid, Name: event.key, Repeating: event.unscheduled ? 'Yes' : 'No', Type: eventType(event) })}>`,
      translated('Description', event.label),
      itemGroupRefsXml(event.formOids),
      '</StudyEventDef>',
    );
  }
  for (const form of metadata.forms) {
    parts.push(
      `<ItemGroupDef${xmlAttributes({ OID: form.oid, Name: form.key, Repeating: 'No', Type: 'Form' })}>`,
      translated('Description', form.label),
      itemGroupRefsXml(form.itemGroupOids),
      '</ItemGroupDef>',
    );
  }
  for (const group of metadata.itemGroups) {
    parts.push(
      `<ItemGroupDef${xmlAttributes({
        OID: group.oid,
        Name: `${group.formKey}.${group.sectionKey}`,
        Repeating: group.repeatingKey ? 'Dynamic' : 'No',
        Type: 'Section',
      })}>`,
    );
    parts.push(translated('Description', group.label));
    group.itemOids.forEach((itemOid, index) => {
      const item = metadata.itemByOid.get(itemOid);
      parts.push(
        `<ItemRef${xmlAttributes({ ItemOID: itemOid, OrderNumber: index + 1, Mandatory: item?.item.required ? 'Yes' : 'No' })}/>`,
      );
    });
    parts.push('</ItemGroupDef>');
  }
  for (const itemDef of metadata.items) parts.push(itemDef20(itemDef));
  for (const list of metadata.codeLists) {
    parts.push(`<CodeList${xmlAttributes({ OID: list.oid, Name: list.key, DataType: 'text' })}>`);
    list.codes.forEach((code, index) => {
      parts.push(
        `<CodeListItem${xmlAttributes({ CodedValue: code.code, OrderNumber: index + 1 })}>${translated('Decode', code.label)}</CodeListItem>`,
      );
    });
    parts.push('</CodeList>');
  }
  parts.push('</MetaDataVersion>');
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
  study: (header, metadata) =>
    `<Study${xmlAttributes({ OID: metadata.studyOid, StudyName: header.study.code, ProtocolName: header.study.code })}>${translated(
      'Description',
      { ko: header.study.title, en: header.study.title },
    )}${metaDataVersionXml(metadata)}`,
  formData: { element: 'ItemGroupData', oidAttribute: 'ItemGroupOID' },
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
