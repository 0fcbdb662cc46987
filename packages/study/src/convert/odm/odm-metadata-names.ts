/**
 * Names shared by the ODM 1.3.2 metadata writer and reader: the namespaces and the OIDs (the XML
 * escaping is ../xml-escape.ts, which the data exports use too). The OIDs are also those of the
 * server's data exports (apps/server/src/odm/odm-metadata.ts uses these), built from the definition's keys, so a data export and a metadata export of one study agree:
 * `SE.v1`, `F.vitalSigns`, `IG.vitalSigns.main`, `I.vitalSigns.systolic`, `CL.gender`, `MU.mmHg`.
 */

export const ODM_NAMESPACE = 'http://www.cdisc.org/ns/odm/v1.3';

/**
 * The namespace of the CDMS extension (packages/study/odm/cdms-odm-extension.xsd): what a study
 * definition holds that ODM cannot say. Written with the prefix `cdms`; read by its URI, whatever prefix
 * a file gives it.
 */
export const CDMS_ODM_NAMESPACE = 'https://cdms.example.org/ns/odm-extension/v1';
export const CDMS_PREFIX = 'cdms';

/**
 * The ODM root's SourceSystem in our files: their OIDs spell the definition's keys (`F.<form>`…), so the
 * reader takes keys from them as they are, even in a plain file without the extension.
 */
export const CDMS_SOURCE_SYSTEM = 'CDMS';

export const metadataOids = {
  study: (studyKey: string) => `S.${studyKey}`,
  metaDataVersion: (version: string) => `MDV.${version}`,
  event: (visitKey: string) => `SE.${visitKey}`,
  form: (formKey: string) => `F.${formKey}`,
  itemGroup: (formKey: string, sectionKey: string) => `IG.${formKey}.${sectionKey}`,
  item: (formKey: string, itemKey: string) => `I.${formKey}.${itemKey}`,
  codeList: (codeListKey: string) => `CL.${codeListKey}`,
  /** Unit symbols hold slashes and signs (kg/m², °C): the OID keeps their letters and digits. */
  unit: (symbol: string) => `MU.${symbol.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'unit'}`,
  /** A show-when's ConditionDef, named after the ItemGroupDef or ItemDef it hides. */
  condition: (targetOid: string) => `CD.${targetOid}`,
  /** A derivation's MethodDef, named after its ItemDef. */
  method: (itemOid: string) => `MT.${itemOid}`,
} as const;

/** The StudyEventDef of the unscheduled visits (Repeating, Type "Unscheduled"), as in the data exports. */
export const UNSCHEDULED_EVENT_KEY = 'unscheduled';

/** The code list yesNo items refer to when the study has none of that key. */
export const YES_NO_CODE_LIST_KEY = 'yesNo';

/** The FormalExpression context of our expressions (JSON text of the expression AST). */
export const CDMS_EXPRESSION_CONTEXT = 'cdms';
