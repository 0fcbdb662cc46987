import type { LocalizedText } from '@cdms/study';
import type { ExportQuery } from './load-export-batch.ts';
import { buildSubjectData, type OdmSubjectData, signatureDefOids, userOidOf } from './odm-clinical-tree.ts';
import { eventType, type OdmMetadata, oids } from './odm-metadata.ts';
import { odmRangeChecks } from './range-checks.ts';
import { adminDataXml, auditRecordXml, type OdmWriteInput, signatureXml } from './write-odm-132.ts';
import { textElement, xmlAttributes } from './xml-escape.ts';

/**
 * CDISC ODM 2.0 Snapshot, streamed like the 1.3.2 writer and with the same content, in 2.0's shape:
 * there is no FormDef — a form is an ItemGroupDef of Type "Form" whose ItemGroupRefs are its sections
 * (Type "Section"), and a StudyEventDef refers to its forms with ItemGroupRef; in the data a form is
 * an ItemGroupData holding its sections' ItemGroupData; ItemData carries Value elements (one per
 * code of a multiple choice); TranslatedText has a Type. 2.0 adds queries: each query is a Query
 * element on the value it concerns (else on its form, else on the subject), its thread one
 * AuditRecord per message (author, site, time, and the message as ReasonForChange).
 * Validated against ../shared/odm/schema-2.0 by the tests.
 */

function translated(name: string, text: LocalizedText): string {
  return `<${name}>${textElement('TranslatedText', text.ko, { 'xml:lang': 'ko', Type: 'text/plain' })}${textElement('TranslatedText', text.en, { 'xml:lang': 'en', Type: 'text/plain' })}</${name}>`;
}

function metaDataVersion20(metadata: OdmMetadata): string {
  const parts: string[] = [];
  parts.push(
    `<MetaDataVersion${xmlAttributes({ OID: metadata.metaDataVersionOid, Name: `${metadata.studyCode} ${metadata.version}` })}>`,
  );
  for (const event of metadata.events) {
    parts.push(
      `<StudyEventDef${xmlAttributes({ OID: event.oid, Name: event.key, Repeating: event.unscheduled ? 'Yes' : 'No', Type: eventType(event) })}>`,
    );
    parts.push(translated('Description', event.label));
    event.formOids.forEach((formOid, index) => {
      parts.push(
        `<ItemGroupRef${xmlAttributes({ ItemGroupOID: formOid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
      );
    });
    parts.push('</StudyEventDef>');
  }
  for (const form of metadata.forms) {
    parts.push(
      `<ItemGroupDef${xmlAttributes({ OID: form.oid, Name: form.key, Repeating: 'No', Type: 'Form' })}>`,
    );
    parts.push(translated('Description', form.label));
    form.itemGroupOids.forEach((groupOid, index) => {
      parts.push(
        `<ItemGroupRef${xmlAttributes({ ItemGroupOID: groupOid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
      );
    });
    parts.push('</ItemGroupDef>');
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
  for (const itemDef of metadata.items) {
    const { item } = itemDef;
    // 2.0 has no SignificantDigits: the decimals become a display format (`5.1` = one decimal).
    const displayFormat =
      itemDef.significantDigits !== undefined
        ? `${Math.max(itemDef.significantDigits + 2, 1)}.${itemDef.significantDigits}`
        : undefined;
    parts.push(
      `<ItemDef${xmlAttributes({
        OID: itemDef.oid,
        Name: item.key,
        DataType: itemDef.dataType === 'float' ? 'decimal' : itemDef.dataType,
        Length: itemDef.length,
        DisplayFormat: displayFormat,
      })}>`,
    );
    // 2.0 dropped MeasurementUnit from ItemDef; the unit travels in the description.
    if (item.unit !== undefined)
      parts.push(translated('Description', { ko: `단위: ${item.unit}`, en: `Unit: ${item.unit}` }));
    parts.push(translated('Question', item.label));
    for (const check of odmRangeChecks(item))
      parts.push(
        `<RangeCheck${xmlAttributes({ Comparator: check.comparator, SoftHard: check.softHard })}>${textElement('CheckValue', String(check.value))}</RangeCheck>`,
      );
    // In 2.0 an ItemData may hold several Values, so a multiple choice keeps its code list.
    if (itemDef.codeListOid)
      parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: itemDef.codeListOid })}/>`);
    parts.push('</ItemDef>');
  }
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

/** The text of a message or query: Korean, and the English too when it says something else. */
function bilingual(text: unknown): string {
  const value = text as { ko?: string; en?: string } | null;
  if (!value) return '';
  if (value.ko && value.en && value.ko !== value.en) return `${value.ko} / ${value.en}`;
  return value.ko ?? value.en ?? '';
}

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
    textElement('Value', bilingual(query.message)),
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
        reason: `[${message.kind}] ${bilingual(message.text)}${proposed}`,
      }),
    );
  }
  parts.push('</Query>');
  return parts.join('');
}

function subjectData20(subject: OdmSubjectData): string {
  const queries = (threads: ExportQuery[]) =>
    threads.map((thread) => queryXml(thread, subject.locationOid)).join('');
  const parts: string[] = [`<SubjectData${xmlAttributes({ SubjectKey: subject.subjectKey })}>`];
  parts.push(`<SiteRef${xmlAttributes({ LocationOID: subject.locationOid })}/>`);
  for (const event of subject.events) {
    parts.push(
      `<StudyEventData${xmlAttributes({ StudyEventOID: event.oid, StudyEventRepeatKey: event.repeatKey })}>`,
    );
    for (const form of event.forms) {
      parts.push(`<ItemGroupData${xmlAttributes({ ItemGroupOID: form.oid })}>`);
      for (const group of form.groups) {
        parts.push(
          `<ItemGroupData${xmlAttributes({ ItemGroupOID: group.oid, ItemGroupRepeatKey: group.repeatKey })}>`,
        );
        for (const item of group.items) {
          const values =
            item.values.length === 1
              ? textElement('Value', item.values[0] ?? '')
              : item.values
                  .map((value, index) => textElement('Value', value, { SeqNum: index + 1 }))
                  .join('');
          parts.push(
            `<ItemData${xmlAttributes({ ItemOID: item.oid })}>${values}${item.audit ? auditRecordXml(item.audit) : ''}${queries(item.queries)}</ItemData>`,
          );
        }
        parts.push('</ItemGroupData>');
      }
      parts.push(`${queries(form.queries)}</ItemGroupData>`);
    }
    parts.push('</StudyEventData>');
  }
  if (subject.signature) parts.push(signatureXml(subject.signature));
  parts.push(`${queries(subject.queries)}</SubjectData>`);
  return parts.join('');
}

export async function* writeOdm20(input: OdmWriteInput): AsyncGenerator<string> {
  const { header, metadata } = input;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<ODM${xmlAttributes({
    xmlns: 'http://www.cdisc.org/ns/odm/v2.0',
    FileType: 'Snapshot',
    Granularity: 'All',
    FileOID: input.fileOid,
    CreationDateTime: input.createdAt.toISOString(),
    ODMVersion: '2.0',
    Originator: 'CDMS',
    SourceSystem: 'CDMS',
  })}>\n`;
  yield `<Study${xmlAttributes({ OID: metadata.studyOid, StudyName: header.study.code, ProtocolName: header.study.code })}>${translated(
    'Description',
    { ko: header.study.title, en: header.study.title },
  )}${metaDataVersion20(metadata)}</Study>\n`;

  yield `${adminDataXml(header, metadata, '2.0')}\n`;

  yield `<ClinicalData${xmlAttributes({ StudyOID: metadata.studyOid, MetaDataVersionOID: metadata.metaDataVersionOid })}>\n`;
  const context = {
    metadata,
    siteCodes: new Map(header.sites.map((site) => [site.id, site.code])),
    signatureOids: signatureDefOids(header),
    withAudit: input.withAudit,
  };
  // A subject at a time: the caller buffers what it writes, so no batch-sized string is ever built.
  for await (const batch of input.batches) {
    for (const subject of batch) {
      const data = buildSubjectData(subject, context);
      input.onSubject?.(data);
      yield `${subjectData20(data)}\n`;
    }
  }
  yield '</ClinicalData>\n</ODM>\n';
}
