import { attribute, children, parseOdmDocument } from './parse-odm-document.ts';

/**
 * The MetaDataVersions of an ODM 1.3 file's (first) Study, in the file's order (oldest first), so a page
 * can offer the choice before `readOdmMetadata(xml, { metaDataVersionOid })` reads one. The Name is the
 * OID where the file gives none; a version without an OID cannot be chosen and is left out.
 *
 * The file is opened as `readOdmMetadata` opens it (the same refusal of DOCTYPE and ENTITY declarations,
 * the same parser). A refused file, or one without versions, gives an empty list: `readOdmMetadata`
 * then says why.
 */
export function listOdmMetaDataVersions(xml: string): { oid: string; name: string }[] {
  const opened = parseOdmDocument(xml);
  if ('refusal' in opened) return [];
  const { study, odm } = opened.document;
  return children(study, odm('MetaDataVersion')).flatMap((version) => {
    const oid = attribute(version, 'OID');
    return oid === undefined ? [] : [{ oid, name: attribute(version, 'Name') ?? oid }];
  });
}
