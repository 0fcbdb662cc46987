import type { LocalizedText } from '@cdms/study';
import type { ExportSubject } from './load-export-batch.ts';
import type { ExportHeader } from './load-export-header.ts';
import {
  buildSubjectData,
  meaningKey,
  type OdmAudit,
  type OdmSubjectData,
  signatureDefOids,
} from './odm-clinical-tree.ts';
import { eventType, type OdmMetadata, oids } from './odm-metadata.ts';
import { type PersonName, splitPersonName } from './person-name.ts';
import { odmRangeChecks } from './range-checks.ts';
import { escapeXmlAttribute, textElement, xmlAttributes } from './xml-escape.ts';

/**
 * CDISC ODM 1.3.2 Snapshot, written as a stream of text chunks: the head (Study with its
 * MetaDataVersion, AdminData) first, then one chunk per batch of subjects, then the closing tags.
 * Nothing but the current batch is held in memory. Validated against ../shared/odm/schema-1.3.2 by
 * the tests.
 */

export interface OdmWriteInput {
  header: ExportHeader;
  metadata: OdmMetadata;
  batches: AsyncIterable<ExportSubject[]>;
  withAudit: boolean;
  fileOid: string;
  createdAt: Date;
  /** Told of every subject written (the export counts subjects and values). */
  onSubject?: (subject: OdmSubjectData) => void;
}

export const LEGAL_REASON =
  'Electronic signature of the investigator under 21 CFR Part 11 (§11.50, §11.200): approval of the casebook data.';

function translated(name: string, text: LocalizedText, attributes: Record<string, string> = {}): string {
  return `<${name}${xmlAttributes(attributes)}>${textElement('TranslatedText', text.ko, { 'xml:lang': 'ko' })}${textElement('TranslatedText', text.en, { 'xml:lang': 'en' })}</${name}>`;
}

/** The meaning of a signature as one text: both languages when they differ. */
export function meaningText(meaning: unknown): string {
  const text = meaning as { ko?: string; en?: string };
  if (text.ko && text.en && text.ko !== text.en) return `${text.ko} / ${text.en}`;
  return text.ko ?? text.en ?? '';
}

function metaDataVersion132(metadata: OdmMetadata): string {
  const parts: string[] = [];
  parts.push(
    `<MetaDataVersion${xmlAttributes({ OID: metadata.metaDataVersionOid, Name: `${metadata.studyCode} ${metadata.version}` })}>`,
  );
  parts.push('<Protocol>');
  metadata.events.forEach((event, index) => {
    parts.push(
      `<StudyEventRef${xmlAttributes({ StudyEventOID: event.oid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
    );
  });
  parts.push('</Protocol>');
  for (const event of metadata.events) {
    parts.push(
      `<StudyEventDef${xmlAttributes({ OID: event.oid, Name: event.key, Repeating: event.unscheduled ? 'Yes' : 'No', Type: eventType(event) })}>`,
    );
    parts.push(translated('Description', event.label));
    event.formOids.forEach((formOid, index) => {
      parts.push(`<FormRef${xmlAttributes({ FormOID: formOid, OrderNumber: index + 1, Mandatory: 'No' })}/>`);
    });
    parts.push('</StudyEventDef>');
  }
  for (const form of metadata.forms) {
    parts.push(`<FormDef${xmlAttributes({ OID: form.oid, Name: form.key, Repeating: 'No' })}>`);
    parts.push(translated('Description', form.label));
    form.itemGroupOids.forEach((groupOid, index) => {
      parts.push(
        `<ItemGroupRef${xmlAttributes({ ItemGroupOID: groupOid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
      );
    });
    parts.push('</FormDef>');
  }
  for (const group of metadata.itemGroups) {
    parts.push(
      `<ItemGroupDef${xmlAttributes({ OID: group.oid, Name: `${group.formKey}.${group.sectionKey}`, Repeating: group.repeatingKey ? 'Yes' : 'No' })}>`,
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
    parts.push(
      `<ItemDef${xmlAttributes({
        OID: itemDef.oid,
        Name: item.key,
        DataType: itemDef.dataType,
        Length: itemDef.length,
        SignificantDigits: itemDef.significantDigits,
      })}>`,
    );
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
    for (const check of odmRangeChecks(item))
      parts.push(
        `<RangeCheck${xmlAttributes({ Comparator: check.comparator, SoftHard: check.softHard })}>${textElement('CheckValue', String(check.value))}</RangeCheck>`,
      );
    // A multiple choice's value is a list of codes, not one code of the list: no CodeListRef.
    if (itemDef.codeListOid && !itemDef.multiple)
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

/**
 * AdminData in either version: the system user, the users who appear in the data, the sites as
 * locations and a SignatureDef per signing statement. 2.0 names its study on AdminData and calls a
 * location's kind `Role` (1.3.2: `LocationType`); the rest is the same.
 */
/**
 * A User's name: FullName as stored, then the given and family names importers read (OpenEDC and
 * the like take FirstName/LastName). The two versions name them differently — 1.3.2 FirstName and
 * LastName, 2.0 GivenName and FamilyName — each in its schema's order after FullName.
 */
function userNameElements(fullName: string, name: PersonName, version: '1.3.2' | '2.0'): string {
  const [given, family] = version === '2.0' ? ['GivenName', 'FamilyName'] : ['FirstName', 'LastName'];
  return `${textElement('FullName', fullName)}${textElement(given, name.given)}${textElement(family, name.family)}`;
}

export function adminDataXml(header: ExportHeader, metadata: OdmMetadata, version: '1.3.2' | '2.0'): string {
  const parts: string[] = [
    version === '2.0' ? `<AdminData${xmlAttributes({ StudyOID: metadata.studyOid })}>` : '<AdminData>',
  ];
  parts.push(
    `<User${xmlAttributes({ OID: oids.systemUser, UserType: 'Other' })}>${userNameElements('CDMS system', { given: 'CDMS', family: 'system' }, version)}</User>`,
  );
  for (const user of header.users) {
    parts.push(
      `<User${xmlAttributes({ OID: oids.user(user.id) })}>${userNameElements(user.name, splitPersonName(user.name), version)}</User>`,
    );
  }
  for (const site of header.sites) {
    parts.push(
      `<Location${xmlAttributes({ OID: oids.location(site.code), Name: site.name, ...(version === '2.0' ? { Role: 'Site' } : { LocationType: 'Site' }) })}><MetaDataVersionRef${xmlAttributes(
        {
          StudyOID: metadata.studyOid,
          MetaDataVersionOID: metadata.metaDataVersionOid,
          EffectiveDate: header.definitionDate,
        },
      )}/></Location>`,
    );
  }
  for (const [key, oid] of signatureDefOids(header)) {
    const meaning = header.signatureMeanings.find((candidate) => meaningKey(candidate) === key);
    parts.push(
      `<SignatureDef${xmlAttributes({ OID: oid, Methodology: 'Electronic' })}>${textElement('Meaning', meaningText(meaning))}${textElement('LegalReason', LEGAL_REASON)}</SignatureDef>`,
    );
  }
  parts.push('</AdminData>');
  return parts.join('');
}

export function auditRecordXml(audit: OdmAudit): string {
  return `<AuditRecord><UserRef${xmlAttributes({ UserOID: audit.userOid })}/><LocationRef${xmlAttributes({ LocationOID: audit.locationOid })}/>${textElement('DateTimeStamp', audit.dateTimeStamp)}${audit.reason ? textElement('ReasonForChange', audit.reason) : ''}</AuditRecord>`;
}

export function signatureXml(signature: NonNullable<OdmSubjectData['signature']>): string {
  return `<Signature><UserRef${xmlAttributes({ UserOID: signature.userOid })}/><LocationRef${xmlAttributes({ LocationOID: signature.locationOid })}/><SignatureRef${xmlAttributes({ SignatureOID: signature.signatureOid })}/>${textElement('DateTimeStamp', signature.dateTimeStamp)}</Signature>`;
}

/** The values of a multiple choice in one 1.3.2 Value: codes separated by commas. */
export const MULTIPLE_VALUE_SEPARATOR = ',';

function subjectData132(subject: OdmSubjectData): string {
  const parts: string[] = [`<SubjectData${xmlAttributes({ SubjectKey: subject.subjectKey })}>`];
  if (subject.signature) parts.push(signatureXml(subject.signature));
  parts.push(`<SiteRef${xmlAttributes({ LocationOID: subject.locationOid })}/>`);
  for (const event of subject.events) {
    parts.push(
      `<StudyEventData${xmlAttributes({ StudyEventOID: event.oid, StudyEventRepeatKey: event.repeatKey })}>`,
    );
    for (const form of event.forms) {
      parts.push(`<FormData${xmlAttributes({ FormOID: form.oid })}>`);
      for (const group of form.groups) {
        parts.push(
          `<ItemGroupData${xmlAttributes({ ItemGroupOID: group.oid, ItemGroupRepeatKey: group.repeatKey })}>`,
        );
        for (const item of group.items) {
          // Written out rather than through xmlAttributes: this line runs once per value.
          const attributes = ` ItemOID="${escapeXmlAttribute(item.oid)}" Value="${escapeXmlAttribute(item.values.join(MULTIPLE_VALUE_SEPARATOR))}"`;
          parts.push(
            item.audit
              ? `<ItemData${attributes}>${auditRecordXml(item.audit)}</ItemData>`
              : `<ItemData${attributes}/>`,
          );
        }
        parts.push('</ItemGroupData>');
      }
      parts.push('</FormData>');
    }
    parts.push('</StudyEventData>');
  }
  parts.push('</SubjectData>');
  return parts.join('');
}

export async function* writeOdm132(input: OdmWriteInput): AsyncGenerator<string> {
  const { header, metadata } = input;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<ODM${xmlAttributes({
    xmlns: 'http://www.cdisc.org/ns/odm/v1.3',
    FileType: 'Snapshot',
    Granularity: 'All',
    FileOID: input.fileOid,
    CreationDateTime: input.createdAt.toISOString(),
    ODMVersion: '1.3.2',
    Originator: 'CDMS',
    SourceSystem: 'CDMS',
  })}>\n`;
  yield `<Study${xmlAttributes({ OID: metadata.studyOid })}><GlobalVariables>${textElement('StudyName', header.study.code)}${textElement(
    'StudyDescription',
    header.study.title,
  )}${textElement('ProtocolName', header.study.code)}</GlobalVariables>`;
  if (metadata.units.length > 0) {
    yield `<BasicDefinitions>${metadata.units
      .map(
        (unit) =>
          `<MeasurementUnit${xmlAttributes({ OID: unit.oid, Name: unit.symbol })}><Symbol>${textElement('TranslatedText', unit.symbol)}</Symbol></MeasurementUnit>`,
      )
      .join('')}</BasicDefinitions>`;
  }
  yield `${metaDataVersion132(metadata)}</Study>\n`;
  yield `${adminDataXml(header, metadata, '1.3.2')}\n`;
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
      yield `${subjectData132(data)}\n`;
    }
  }
  yield '</ClinicalData>\n</ODM>\n';
}
