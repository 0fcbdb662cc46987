import type { LocalizedText } from '@cdms/study';
import { textElement, xmlAttributes } from '@cdms/study';
import type { ExportQuery, ExportSubject } from './load-export-batch.ts';
import type { ExportHeader } from './load-export-header.ts';
import {
  buildSubjectData,
  meaningKey,
  type OdmAudit,
  type OdmItemData,
  type OdmSubjectData,
  signatureDefOids,
} from './odm-clinical-tree.ts';
import { type OdmMetadata, oids } from './odm-metadata.ts';
import { type PersonName, splitPersonName } from './person-name.ts';

/**
 * A CDISC ODM Snapshot, written once for both versions (issue 44 item 5): the order of the
 * document's parts and the markup 1.3.2 and 2.0 share live here, so the two cannot drift apart;
 * what a version writes its own way is its OdmVersionMarkup (write-odm-132.ts, write-odm-20.ts).
 * The data of both come from the same metadata (odm-metadata.ts: OIDs and where each stored value
 * goes) and clinical tree (odm-clinical-tree.ts); the design in the Study element is each version's
 * own (`OdmVersionMarkup.study`). Streamed as text chunks: the head (Study with its design,
 * AdminData) first, then one subject at a time, then the closing tags — nothing but the current
 * batch is held in memory.
 */

export interface OdmWriteInput {
  header: ExportHeader;
  metadata: OdmMetadata;
  batches: AsyncIterable<ExportSubject[]>;
  withAudit: boolean;
  /** Leave out the values of the definition's personal-data items (odm-clinical-tree.ts). */
  maskPersonalData?: boolean;
  fileOid: string;
  createdAt: Date;
  /** Told of every subject written (the export counts subjects and values). */
  onSubject?: (subject: OdmSubjectData) => void;
}

export type Attributes = Record<string, string | number | undefined>;

/** What one ODM version writes its own way; everything else is written by this module. */
export interface OdmVersionMarkup {
  version: '1.3.2' | '2.0';
  namespace: string;
  /** Other namespaces the root element declares (1.3.2's CDMS extension). */
  namespaces?: Record<string, string>;
  /**
   * The Study element up to its end tag: the study's names and its design. 1.3.2 writes the complete
   * design of every definition version (the metadata export's, packages/study); 2.0 the structure of
   * the version in force (write-odm-20.ts).
   */
  study: (header: ExportHeader, metadata: OdmMetadata) => string;
  /**
   * A form's data element: 1.3.2 has FormData; 2.0 has no form element — a form is an item group of
   * Type "Form", written as ItemGroupData.
   */
  formData: { element: 'FormData' | 'ItemGroupData'; oidAttribute: 'FormOID' | 'ItemGroupOID' };
  /** 1.3.2 puts a subject's Signature first, 2.0 after its events. */
  signature: 'first' | 'last';
  itemData: (item: OdmItemData, locationOid: string) => string;
  /** Queries placed on a form or on the subject: 2.0's; 1.3.2 has no element for them. */
  queries: (threads: ExportQuery[], locationOid: string) => string;
}

export const LEGAL_REASON =
  'Electronic signature of the investigator under 21 CFR Part 11 (§11.50, §11.200): approval of the casebook data.';

/**
 * A stored { ko, en } text (a signature's meaning, a query's message) as one text: Korean, and
 * the English too when it says something else.
 */
export function bilingualText(text: unknown): string {
  const value = text as { ko?: string; en?: string } | null | undefined;
  if (!value) return '';
  if (value.ko && value.en && value.ko !== value.en) return `${value.ko} / ${value.en}`;
  return value.ko ?? value.en ?? '';
}

/** `<name>` holding a TranslatedText per language; 2.0 gives each a Type (`textAttributes`). */
export function translatedTexts(name: string, text: LocalizedText, textAttributes: Attributes = {}): string {
  return `<${name}>${textElement('TranslatedText', text.ko, { 'xml:lang': 'ko', ...textAttributes })}${textElement('TranslatedText', text.en, { 'xml:lang': 'en', ...textAttributes })}</${name}>`;
}

/**
 * A User's name: FullName as stored, then the given and family names importers read (OpenEDC and
 * the like take FirstName/LastName). The two versions name them differently — 1.3.2 FirstName and
 * LastName, 2.0 GivenName and FamilyName — each in its schema's order after FullName.
 */
function userNameElements(fullName: string, name: PersonName, version: '1.3.2' | '2.0'): string {
  const [given, family] = version === '2.0' ? ['GivenName', 'FamilyName'] : ['FirstName', 'LastName'];
  return `${textElement('FullName', fullName)}${textElement(given, name.given)}${textElement(family, name.family)}`;
}

/**
 * AdminData in either version: the system user, the users who appear in the data, the sites as
 * locations and a SignatureDef per signing statement. 2.0 names its study on AdminData and calls a
 * location's kind `Role` (1.3.2: `LocationType`); the rest is the same.
 */
function adminDataXml(header: ExportHeader, metadata: OdmMetadata, version: '1.3.2' | '2.0'): string {
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
      `<SignatureDef${xmlAttributes({ OID: oid, Methodology: 'Electronic' })}>${textElement('Meaning', bilingualText(meaning))}${textElement('LegalReason', LEGAL_REASON)}</SignatureDef>`,
    );
  }
  parts.push('</AdminData>');
  return parts.join('');
}

export function auditRecordXml(audit: OdmAudit): string {
  return `<AuditRecord><UserRef${xmlAttributes({ UserOID: audit.userOid })}/><LocationRef${xmlAttributes({ LocationOID: audit.locationOid })}/>${textElement('DateTimeStamp', audit.dateTimeStamp)}${audit.reason ? textElement('ReasonForChange', audit.reason) : ''}</AuditRecord>`;
}

function signatureXml(signature: NonNullable<OdmSubjectData['signature']>): string {
  return `<Signature><UserRef${xmlAttributes({ UserOID: signature.userOid })}/><LocationRef${xmlAttributes({ LocationOID: signature.locationOid })}/><SignatureRef${xmlAttributes({ SignatureOID: signature.signatureOid })}/>${textElement('DateTimeStamp', signature.dateTimeStamp)}</Signature>`;
}

function subjectDataXml(subject: OdmSubjectData, markup: OdmVersionMarkup): string {
  const { locationOid } = subject;
  const formMarkup = markup.formData;
  const parts: string[] = [`<SubjectData${xmlAttributes({ SubjectKey: subject.subjectKey })}>`];
  if (subject.signature && markup.signature === 'first') parts.push(signatureXml(subject.signature));
  parts.push(`<SiteRef${xmlAttributes({ LocationOID: locationOid })}/>`);
  for (const event of subject.events) {
    parts.push(
      `<StudyEventData${xmlAttributes({ StudyEventOID: event.oid, StudyEventRepeatKey: event.repeatKey })}>`,
    );
    for (const form of event.forms) {
      parts.push(`<${formMarkup.element}${xmlAttributes({ [formMarkup.oidAttribute]: form.oid })}>`);
      for (const group of form.groups) {
        parts.push(
          `<ItemGroupData${xmlAttributes({ ItemGroupOID: group.oid, ItemGroupRepeatKey: group.repeatKey })}>`,
        );
        for (const item of group.items) parts.push(markup.itemData(item, locationOid));
        parts.push('</ItemGroupData>');
      }
      parts.push(`${markup.queries(form.queries, locationOid)}</${formMarkup.element}>`);
    }
    parts.push('</StudyEventData>');
  }
  if (subject.signature && markup.signature === 'last') parts.push(signatureXml(subject.signature));
  parts.push(`${markup.queries(subject.queries, locationOid)}</SubjectData>`);
  return parts.join('');
}

export async function* writeOdmDocument(
  input: OdmWriteInput,
  markup: OdmVersionMarkup,
): AsyncGenerator<string> {
  const { header, metadata } = input;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<ODM${xmlAttributes({
    xmlns: markup.namespace,
    ...markup.namespaces,
    FileType: 'Snapshot',
    Granularity: 'All',
    FileOID: input.fileOid,
    CreationDateTime: input.createdAt.toISOString(),
    ODMVersion: markup.version,
    Originator: 'CDMS',
    SourceSystem: 'CDMS',
  })}>\n`;
  yield `${markup.study(header, metadata)}</Study>\n`;
  yield `${adminDataXml(header, metadata, markup.version)}\n`;
  yield `<ClinicalData${xmlAttributes({ StudyOID: metadata.studyOid, MetaDataVersionOID: metadata.metaDataVersionOid })}>\n`;
  const context = {
    metadata,
    siteCodes: new Map(header.sites.map((site) => [site.id, site.code])),
    signatureOids: signatureDefOids(header),
    withAudit: input.withAudit,
    maskPersonalData: input.maskPersonalData ?? false,
  };
  // A subject at a time: the caller buffers what it writes, so no batch-sized string is ever built.
  for await (const batch of input.batches) {
    for (const subject of batch) {
      const data = buildSubjectData(subject, context);
      input.onSubject?.(data);
      yield `${subjectDataXml(data, markup)}\n`;
    }
  }
  yield '</ClinicalData>\n</ODM>\n';
}
