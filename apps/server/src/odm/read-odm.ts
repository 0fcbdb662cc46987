import { XMLParser } from 'fast-xml-parser';
import { UNSCHEDULED_EVENT_KEY } from './odm-metadata.ts';

/**
 * Reads an ODM 1.3.2 or 2.0 document (ours, or one shaped like it) back into
 * subject → visit → form → item group (and repeat) → item → value, with each value's audit record,
 * the subject's signature and, in 2.0, the queries with their thread. Keys come from our OIDs
 * (`SE.v1` → v1, `F.vitalSigns` → vitalSigns, `IG.vitalSigns.main` → main, `I.vitalSigns.pulse` →
 * pulse); an OID of another shape is kept whole. The round-trip tests use it to prove that every
 * value exported comes back. It parses the whole text at once: it is for checking and importing
 * files, not for streaming a 900,000-value export.
 */

export interface OdmAuditRead {
  userOid: string;
  locationOid: string;
  dateTimeStamp: string;
  reason?: string;
}

export interface OdmQueryRead {
  oid: string;
  state: string;
  source: string;
  type?: string;
  target?: string;
  text: string;
  thread: OdmAuditRead[];
  /** Where it was found: `subject`, `visit.form` or `visit.form.group[repeat].item`. */
  placedOn: string;
}

export interface OdmItemRead {
  /** Several for a 2.0 multiple choice; a 1.3.2 multiple choice is one comma-separated text. */
  values: string[];
  audit?: OdmAuditRead;
}

/** Item group key: the section key, with `[repeat]` for a repeating group's row. */
export type OdmFormRead = Record<string, Record<string, OdmItemRead>>;

export interface OdmSubjectRead {
  subjectKey: string;
  locationOid?: string;
  signature?: { userOid: string; locationOid: string; signatureOid: string; dateTimeStamp: string };
  visits: Record<string, Record<string, OdmFormRead>>;
  queries: OdmQueryRead[];
}

export interface OdmRead {
  odmVersion: string;
  fileType: string;
  studyOid: string;
  /** Given and family names from 1.3.2's FirstName/LastName or 2.0's GivenName/FamilyName. */
  users: { oid: string; fullName?: string; givenName?: string; familyName?: string }[];
  locations: { oid: string; name: string }[];
  signatureDefs: { oid: string; meaning: string; legalReason: string }[];
  subjects: Map<string, OdmSubjectRead>;
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  alwaysCreateTextNode: true,
  // Every element as a list, so one child and many read the same way.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  processEntities: true,
  // Numeric character references (&#10; &#9; &#13;, which the writers use to keep line breaks and
  // tabs of attribute values) are decoded only with this option on.
  htmlEntities: true,
});

const children = (node: Node | undefined, name: string): Node[] => (node?.[name] as Node[] | undefined) ?? [];
const child = (node: Node | undefined, name: string): Node | undefined => children(node, name)[0];
const attribute = (node: Node | undefined, name: string): string | undefined =>
  node?.[`@${name}`] as string | undefined;
const text = (node: Node | undefined): string => (node?.['#text'] as string | undefined) ?? '';

/** The key an OID of ours was made from: the part after the prefix (and the form key). */
function keyOf(oid: string, prefix: 'SE' | 'F' | 'IG' | 'I'): string {
  const parts = oid.split('.');
  if (parts[0] !== prefix) return oid;
  if (prefix === 'SE' || prefix === 'F') return parts.slice(1).join('.') || oid;
  return parts.slice(2).join('.') || oid;
}

function readAudit(node: Node | undefined): OdmAuditRead | undefined {
  if (!node) return undefined;
  const reason = child(node, 'ReasonForChange');
  return {
    userOid: attribute(child(node, 'UserRef'), 'UserOID') ?? '',
    locationOid: attribute(child(node, 'LocationRef'), 'LocationOID') ?? '',
    dateTimeStamp: text(child(node, 'DateTimeStamp')),
    ...(reason ? { reason: text(reason) } : {}),
  };
}

function readQueries(node: Node, placedOn: string): OdmQueryRead[] {
  return children(node, 'Query').map((query) => {
    const type = attribute(query, 'Type');
    const target = attribute(query, 'Target');
    return {
      oid: attribute(query, 'OID') ?? '',
      state: attribute(query, 'State') ?? '',
      source: attribute(query, 'Source') ?? '',
      ...(type !== undefined ? { type } : {}),
      ...(target !== undefined ? { target } : {}),
      text: text(child(query, 'Value')),
      thread: children(query, 'AuditRecord').flatMap((record) => readAudit(record) ?? []),
      placedOn,
    };
  });
}

function readItems(
  group: Node,
  into: Record<string, OdmItemRead>,
  placedOn: string,
  queries: OdmQueryRead[],
) {
  for (const item of children(group, 'ItemData')) {
    const key = keyOf(attribute(item, 'ItemOID') ?? '', 'I');
    // 1.3.2 carries the value in an attribute, 2.0 in Value elements.
    const valueAttribute = attribute(item, 'Value');
    const values = valueAttribute !== undefined ? [valueAttribute] : children(item, 'Value').map(text);
    const audit = readAudit(child(item, 'AuditRecord'));
    into[key] = { values, ...(audit ? { audit } : {}) };
    queries.push(...readQueries(item, `${placedOn}.${key}`));
  }
}

function groupKeyOf(group: Node): string {
  const section = keyOf(attribute(group, 'ItemGroupOID') ?? '', 'IG');
  const repeat = attribute(group, 'ItemGroupRepeatKey');
  return repeat === undefined ? section : `${section}[${repeat}]`;
}

export function readOdm(xml: string): OdmRead {
  const document = parser.parse(xml) as Node;
  const odm = child(document, 'ODM');
  if (!odm) throw new Error('Not an ODM document: no ODM element.');
  const odmVersion = attribute(odm, 'ODMVersion') ?? '';
  const is20 = odmVersion.startsWith('2');
  const admin = child(odm, 'AdminData');
  const result: OdmRead = {
    odmVersion,
    fileType: attribute(odm, 'FileType') ?? '',
    studyOid: attribute(child(odm, 'Study'), 'OID') ?? '',
    users: children(admin, 'User').map((user) => {
      const fullName = child(user, 'FullName');
      const given = child(user, is20 ? 'GivenName' : 'FirstName');
      const family = child(user, is20 ? 'FamilyName' : 'LastName');
      return {
        oid: attribute(user, 'OID') ?? '',
        ...(fullName ? { fullName: text(fullName) } : {}),
        ...(given ? { givenName: text(given) } : {}),
        ...(family ? { familyName: text(family) } : {}),
      };
    }),
    locations: children(admin, 'Location').map((location) => ({
      oid: attribute(location, 'OID') ?? '',
      name: attribute(location, 'Name') ?? '',
    })),
    signatureDefs: children(admin, 'SignatureDef').map((definition) => ({
      oid: attribute(definition, 'OID') ?? '',
      meaning: text(child(definition, 'Meaning')),
      legalReason: text(child(definition, 'LegalReason')),
    })),
    subjects: new Map(),
  };

  for (const clinical of children(odm, 'ClinicalData')) {
    for (const subjectNode of children(clinical, 'SubjectData')) {
      const subjectKey = attribute(subjectNode, 'SubjectKey') ?? '';
      const queries: OdmQueryRead[] = [];
      const visits: OdmSubjectRead['visits'] = {};
      for (const event of children(subjectNode, 'StudyEventData')) {
        const eventKey = keyOf(attribute(event, 'StudyEventOID') ?? '', 'SE');
        // The unscheduled visits' event repeats: its n-th data are the visit `unscheduled-<n>`.
        const repeatKey = attribute(event, 'StudyEventRepeatKey');
        const visitKey =
          eventKey === UNSCHEDULED_EVENT_KEY && repeatKey ? `${eventKey}-${repeatKey}` : eventKey;
        visits[visitKey] ??= {};
        const forms = visits[visitKey];
        // 1.3.2: FormData > ItemGroupData; 2.0: ItemGroupData (the form) > ItemGroupData (sections).
        const formNodes = is20 ? children(event, 'ItemGroupData') : children(event, 'FormData');
        for (const formNode of formNodes) {
          const formKey = keyOf(attribute(formNode, is20 ? 'ItemGroupOID' : 'FormOID') ?? '', 'F');
          forms[formKey] ??= {};
          const form = forms[formKey];
          for (const group of children(formNode, 'ItemGroupData')) {
            const groupKey = groupKeyOf(group);
            form[groupKey] ??= {};
            readItems(group, form[groupKey], `${visitKey}.${formKey}.${groupKey}`, queries);
          }
          queries.push(...readQueries(formNode, `${visitKey}.${formKey}`));
        }
      }
      queries.push(...readQueries(subjectNode, 'subject'));
      const signatureNode = child(subjectNode, 'Signature');
      const locationOid = attribute(child(subjectNode, 'SiteRef'), 'LocationOID');
      result.subjects.set(subjectKey, {
        subjectKey,
        ...(locationOid !== undefined ? { locationOid } : {}),
        ...(signatureNode
          ? {
              signature: {
                userOid: attribute(child(signatureNode, 'UserRef'), 'UserOID') ?? '',
                locationOid: attribute(child(signatureNode, 'LocationRef'), 'LocationOID') ?? '',
                signatureOid: attribute(child(signatureNode, 'SignatureRef'), 'SignatureOID') ?? '',
                dateTimeStamp: text(child(signatureNode, 'DateTimeStamp')),
              },
            }
          : {}),
        visits,
        queries,
      });
    }
  }
  return result;
}
