import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import {
  type CodeList,
  type FormDefinition,
  type ItemDefinition,
  type ItemType,
  type SectionDefinition,
  type StudyDefinition,
  type UnscheduledVisitDefinition,
  type VisitDefinition,
  type VisitGroup,
  visitGroupSchema,
} from '../../model/study-definition.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { keyFromRedcapName } from '../redcap/redcap-names.ts';
import { validateImportedDefinition } from '../validate-imported-definition.ts';
import { CDMS_EXPRESSION_CONTEXT, CDMS_ODM_NAMESPACE, CDMS_SOURCE_SYSTEM } from './odm-metadata-names.ts';
import {
  attribute,
  children,
  type Node,
  ODM_13_NAMESPACE,
  parseOdmDocument,
  splitName,
  textOf,
  walk,
} from './parse-odm-document.ts';

/**
 * CDISC ODM 1.3.x study metadata read into a study definition, with a report of every problem.
 *
 * - Our own files (`writeOdmMetadata`, with the CDMS extension) come back exactly as written. The
 *   study's key and label are the options' (the study the file is imported into), not the file's.
 * - ODM written by other systems (REDCap, OpenClinica, OpenEDC…) becomes a working study with what ODM
 *   says: visits in Protocol order with their forms, forms, item groups as sections (repeating where
 *   ODM repeats), items with their types, units, code lists (single choices) and range checks, and
 *   the texts in Korean and English. Keys come from the ODM Names (or OIDs) made into CDMS keys.
 * - Vendor extensions (any namespace but ODM's and ours) are ignored and listed, one note per
 *   namespace. A condition or derivation in another language than ours is reported and left out; its
 *   item is imported without it, never dropped.
 * - With several MetaDataVersions, the last in the file is read (ODM lists versions oldest first; an
 *   export of one study's history writes them so) and a note says so; `metaDataVersionOid` reads
 *   another (`listOdmMetaDataVersions` lists them).
 * - Our plain files (`extensions: false`, SourceSystem CDMS) are read as another system's, except that
 *   the keys are taken from the OIDs as they are (they are spelled from our keys).
 * - A document with a DOCTYPE or ENTITY declaration is refused before parsing (external entities and
 *   entity expansion attacks), as is anything that is not well-formed XML with an ODM 1.3 root.
 */
export function readOdmMetadata(
  xml: string,
  options: {
    studyKey: string;
    studyLabel: LocalizedText;
    language: 'ko' | 'en';
    /** The MetaDataVersion to read (see `listOdmMetaDataVersions`); the last in the file by default. */
    metaDataVersionOid?: string;
  },
): { definition: StudyDefinition | null; problems: ImportProblem[] } {
  const opened = parseOdmDocument(xml);
  if ('refusal' in opened) return { definition: null, problems: [opened.refusal] };
  const { text, document, root, namespaces, odm, cdms, study, studyCount } = opened.document;
  const problems: ImportProblem[] = [];
  const refuse = (message: LocalizedText) => {
    problems.push({ severity: 'error', message });
    return { definition: null, problems };
  };

  reportVendorExtensions(document, namespaces, problems);

  const versions = children(study, odm('MetaDataVersion'));
  const chosenOid = options.metaDataVersionOid;
  const metaDataVersion =
    chosenOid === undefined
      ? versions.at(-1)
      : versions.find((version) => attribute(version, 'OID') === chosenOid);
  if (chosenOid !== undefined && versions.length > 0 && !metaDataVersion) {
    const present = versions.map((version) => attribute(version, 'OID') ?? '?').join(', ');
    return refuse({
      en: `The file holds no metadata version ${chosenOid} (it holds ${present}).`,
      ko: `파일에 없는 메타데이터 버전입니다: ${chosenOid} (있는 버전: ${present}).`,
    });
  }
  if (!study || !metaDataVersion) {
    const clinicalOnly = children(root, odm('ClinicalData')).length > 0;
    return refuse(
      clinicalOnly
        ? {
            en: 'The file holds clinical data only, no study design (no MetaDataVersion): export the study metadata instead.',
            ko: '파일에 임상 데이터만 있고 시험 설계(MetaDataVersion)가 없습니다. 시험 메타데이터를 내보낸 파일을 올려 주세요.',
          }
        : {
            en: 'The ODM file holds no study design (no Study with a MetaDataVersion).',
            ko: 'ODM 파일에 시험 설계(MetaDataVersion이 있는 Study)가 없습니다.',
          },
    );
  }
  if (studyCount > 1) {
    problems.push({
      severity: 'note',
      message: {
        en: `The file holds ${studyCount} studies; the first (${attribute(study, 'OID')}) is read.`,
        ko: `파일에 시험이 ${studyCount}개 있습니다. 첫 번째 시험(${attribute(study, 'OID')})을 읽습니다.`,
      },
    });
  }
  if (versions.length > 1 && chosenOid === undefined) {
    problems.push({
      severity: 'note',
      message: {
        en: `The file holds ${versions.length} metadata versions; the last (${attribute(metaDataVersion, 'OID')}) is read.`,
        ko: `파일에 메타데이터 버전이 ${versions.length}개 있습니다. 마지막 버전(${attribute(metaDataVersion, 'OID')})을 읽습니다.`,
      },
    });
  }
  if (children(metaDataVersion, odm('Include')).length > 0) {
    problems.push({
      severity: 'warning',
      message: {
        en: 'The metadata version includes another (Include): only what this file states is read.',
        ko: '메타데이터 버전이 다른 버전을 포함합니다(Include). 이 파일에 적힌 내용만 읽습니다.',
      },
    });
  }

  const extension = children(metaDataVersion, cdms('Definition'))[0];
  const ourFile = attribute(root, 'SourceSystem') === CDMS_SOURCE_SYSTEM;
  const reader = new MetadataReader({
    text,
    study,
    metaDataVersion,
    own: extension !== undefined,
    ourKeys: extension !== undefined || ourFile,
    language: options.language,
    odm,
    cdms,
    problems,
  });
  if (ourFile && !extension) {
    problems.push({
      severity: 'note',
      message: {
        en: 'A CDMS file in plain ODM (without the CDMS extension): what ODM cannot say is not in it (visit windows, form checks and outcomes, item types such as yes/no or long text, help texts and other item settings, study parameters, status rules and roles).',
        ko: 'CDMS 확장 없이 내보낸 일반 ODM 파일입니다. ODM으로 나타낼 수 없는 내용(방문 허용 범위, 양식 검사와 결과, 예/아니오·긴 텍스트 같은 항목 유형, 도움말과 그 밖의 항목 설정, 시험 매개변수, 상태 규칙, 역할)은 들어 있지 않습니다.',
      },
    });
  }
  const codeLists = reader.readCodeLists();
  const forms = reader.readForms();
  const { visits, unscheduledVisit } = reader.readVisits(forms);
  reader.reportOneLanguageTexts();

  // Our plain files say the version only in the MetaDataVersion's OID (MDV.<version>).
  const versionInOid = ourFile
    ? /^MDV\.(\d+\.\d+\.\d+)$/.exec(attribute(metaDataVersion, 'OID') ?? '')?.[1]
    : undefined;
  const definition: Record<string, unknown> = {
    key: options.studyKey,
    version: (extension && attribute(extension, 'Version')) || versionInOid || '1.0.0',
    label: options.studyLabel,
  };
  if (extension) {
    for (const [field, element] of [
      ['visitDate', 'VisitDate'],
      ['parameters', 'Parameters'],
    ] as const) {
      const value = reader.json(children(extension, cdms(element))[0], `cdms:${element}`);
      if (value !== undefined) definition[field] = value;
    }
  }
  definition.codeLists = codeLists;
  definition.visits = visits;
  if (unscheduledVisit) definition.unscheduledVisit = unscheduledVisit;
  definition.forms = forms;
  if (extension) {
    for (const [field, element] of [
      ['subjectStatus', 'SubjectStatus'],
      ['roles', 'Roles'],
    ] as const) {
      const value = reader.json(children(extension, cdms(element))[0], `cdms:${element}`);
      if (value !== undefined) definition[field] = value;
    }
  }

  return { definition: validateImportedDefinition(definition, problems), problems };
}

/** Namespaces that belong to ODM itself (signatures, links): neither ours nor a vendor's. */
const STANDARD_NAMESPACES = new Set([
  ODM_13_NAMESPACE,
  CDMS_ODM_NAMESPACE,
  'http://www.w3.org/XML/1998/namespace',
  'http://www.w3.org/2000/09/xmldsig#',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/2001/XMLSchema-instance',
]);

const isKey = (text: string) => /^[A-Za-z][A-Za-z0-9]*$/.test(text);

/** One note per vendor namespace, with the element and attribute names seen in it. */
function reportVendorExtensions(document: Node, namespaces: Map<string, string>, problems: ImportProblem[]) {
  const seen = new Map<string, { prefix: string; elements: Set<string>; attributes: Set<string> }>();
  const note = (prefix: string) => {
    const uri = namespaces.get(prefix) ?? `(undeclared prefix ${prefix})`;
    if (STANDARD_NAMESPACES.has(uri)) return undefined;
    let entry = seen.get(uri);
    if (!entry) {
      entry = { prefix, elements: new Set(), attributes: new Set() };
      seen.set(uri, entry);
    }
    return entry;
  };
  for (const [name, node] of walk(document)) {
    const [prefix, local] = splitName(name);
    if (prefix !== '') note(prefix)?.elements.add(local);
    for (const attributeName of Object.keys(node)) {
      if (!attributeName.startsWith('@') || attributeName.startsWith('@xmlns')) continue;
      const [attributePrefix, attributeLocal] = splitName(attributeName.slice(1));
      if (attributePrefix !== '') note(attributePrefix)?.attributes.add(attributeLocal);
    }
  }
  const listed = (names: Set<string>) => {
    const all = [...names];
    return all.length > 12 ? `${all.slice(0, 12).join(', ')} … (+${all.length - 12})` : all.join(', ');
  };
  for (const [uri, entry] of seen) {
    // Only the kinds of names the file used: "elements a, b; attributes c", either part alone.
    const parts = { en: [] as string[], ko: [] as string[] };
    if (entry.elements.size > 0) {
      parts.en.push(`elements ${listed(entry.elements)}`);
      parts.ko.push(`요소 ${listed(entry.elements)}`);
    }
    if (entry.attributes.size > 0) {
      parts.en.push(`attributes ${listed(entry.attributes)}`);
      parts.ko.push(`속성 ${listed(entry.attributes)}`);
    }
    problems.push({
      severity: 'note',
      field: entry.prefix,
      message: {
        en: `Vendor extension ${uri} (prefix ${entry.prefix}) ignored: ${parts.en.join('; ')}.`,
        ko: `무시한 공급사 확장: ${uri}(접두사 ${entry.prefix}). ${parts.ko.join('; ')}.`,
      },
    });
  }
}

/** `OrderNumber` order where a file gives one (stable for ties and for refs without it). */
function byOrderNumber(refs: Node[]): Node[] {
  return refs
    .map((ref, index) => ({ ref, index, order: Number(attribute(ref, 'OrderNumber') ?? Number.NaN) }))
    .sort((a, b) => {
      const aOrder = Number.isNaN(a.order) ? Number.POSITIVE_INFINITY : a.order;
      const bOrder = Number.isNaN(b.order) ? Number.POSITIVE_INFINITY : b.order;
      return aOrder - bOrder || a.index - b.index;
    })
    .map((entry) => entry.ref);
}

/** ODM DataTypes of other systems → our item types (a code list makes any of them a single choice). */
const TYPE_OF_DATA_TYPE: Record<string, ItemType> = {
  text: 'text',
  string: 'text',
  integer: 'integer',
  float: 'decimal',
  double: 'decimal',
  date: 'date',
  time: 'time',
  boolean: 'checkbox',
};

/** A key made unique among `taken` by a number (`weight`, `weight2`…), and taken. */
function uniqueKey(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n += 1) key = `${base}${n}`;
  taken.add(key);
  return key;
}

/**
 * A CDMS key for another system's form, event or item group: from its OID, without the usual prefix
 * (`F_`, `SE_`, `IG_`, REDCap's `Form.` and `Event.`), since their Names are labels ("Vital signs - v1.0").
 * For an item group, the last dotted part (REDCap's `vital_signs.vs_date` → `vsDate`).
 */
function keyFromOid(oid: string): string {
  const bare = oid
    .replace(/^(SE|F|IG|I|CL|MU|Form|Event)[._]/i, '')
    // REDCap's arm (`baseline_arm_1`) and OpenClinica's CRF version (`F_VITALS_V10`) are not part of the name.
    .replace(/_arm_\d+[a-z]?$/, '')
    .replace(/_V\d+$/, '');
  return keyFromRedcapName(bare.split('.').at(-1) || bare || 'x');
}

/** A CDMS key for an item or code list: its Name when it is one already (`SEX`), else made into one. */
function keyFromName(name: string | undefined, oid: string): string {
  if (name !== undefined && isKey(name)) return name;
  return name ? keyFromRedcapName(name) : keyFromOid(oid);
}

interface ReaderContext {
  text: string;
  study: Node;
  metaDataVersion: Node;
  /** The file carries the CDMS extension: keys and everything else are read from it exactly. */
  own: boolean;
  /** The OIDs spell our keys (`F.<form>`, `IG.<form>.<section>`, `SE.<visit>`): our file, plain or not. */
  ourKeys: boolean;
  language: 'ko' | 'en';
  odm: (local: string) => string;
  cdms: (local: string) => string;
  problems: ImportProblem[];
}

/** The reading of one MetaDataVersion: the definitions indexed by OID, then visits, forms, code lists. */
class MetadataReader {
  private readonly byOid: (element: string) => Map<string, Node>;
  private readonly codeListKeys = new Map<string, string>();
  private readonly codeListSizes = new Map<string, number>();
  private readonly formKeys = new Map<string, string>();
  private oneLanguageTexts = 0;
  private oidLines: Map<string, number> | undefined;
  private otherLanguageTexts = 0;

  private readonly context: ReaderContext;

  constructor(context: ReaderContext) {
    this.context = context;
    const indexes = new Map<string, Map<string, Node>>();
    this.byOid = (element) => {
      let index = indexes.get(element);
      if (!index) {
        index = new Map();
        for (const node of children(context.metaDataVersion, context.odm(element))) {
          const oid = attribute(node, 'OID');
          if (oid !== undefined && !index.has(oid)) index.set(oid, node);
        }
        indexes.set(element, index);
      }
      return index;
    };
  }

  private problem(severity: ImportProblem['severity'], message: LocalizedText, oid?: string, field?: string) {
    const line = oid === undefined ? undefined : this.lineOfOid(oid);
    this.context.problems.push({
      severity,
      message,
      ...(line !== undefined ? { line } : {}),
      ...(field !== undefined ? { field } : {}),
    });
  }

  /**
   * The line of the definition with this OID (the first ` OID="…"` from the MetaDataVersion read on, so
   * that in a file of several versions it is the one read), for the report. The lines of all OIDs are
   * found in one pass on the first problem, so a file with thousands of problems costs one scan, not one
   * per problem. (A locator only: the document itself was read by the parser.)
   */
  private lineOfOid(oid: string): number | undefined {
    if (!this.oidLines) {
      this.oidLines = new Map();
      const { text } = this.context;
      let line = 1;
      let scanned = 0;
      const versionOid = attribute(this.context.metaDataVersion, 'OID');
      let inVersion = false;
      for (const match of text.matchAll(/\sOID="([^"]*)"/g)) {
        for (
          let at = text.indexOf('\n', scanned);
          at >= 0 && at < match.index;
          at = text.indexOf('\n', at + 1)
        )
          line += 1;
        scanned = match.index;
        const found = match[1] ?? '';
        if (found === versionOid && !inVersion) {
          // The earlier versions' OIDs are the same names on other lines: from here on is the one read.
          inVersion = true;
          this.oidLines.clear();
        }
        if (!this.oidLines.has(found)) this.oidLines.set(found, line);
      }
    }
    return this.oidLines.get(oid);
  }

  /** The key of a form, item group or event: the last dotted part of our OIDs, else made from the OID. */
  private keyFromOid(oid: string): string {
    const ownKey = oid.split('.').at(-1) ?? '';
    return this.context.ourKeys && isKey(ownKey) ? ownKey : keyFromOid(oid);
  }

  /** An extension element's JSON text, or undefined (with an error) when it is not JSON. */
  json(node: Node | undefined, where: string): unknown {
    if (!node) return undefined;
    const text = textOf(node);
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      this.problem('error', {
        en: `${where}: the CDMS extension does not hold valid JSON.`,
        ko: `${where}: CDMS 확장의 내용이 올바른 JSON이 아닙니다.`,
      });
      return undefined;
    }
  }

  /**
   * The Korean and English of a list of TranslatedTexts (in Question, Description, Decode…). A text
   * without xml:lang is in the import's language; one language only gives both the same text (counted
   * for one note at the end); another language only is used for both too.
   */
  translated(container: Node | undefined): LocalizedText | undefined {
    const texts = children(container, this.context.odm('TranslatedText'));
    if (texts.length === 0) return undefined;
    const byLanguage = new Map<string, string>();
    for (const node of texts) {
      const language = (attribute(node, 'xml:lang') ?? this.context.language).toLowerCase().slice(0, 2);
      const value = this.context.own ? textOf(node) : textOf(node).trim();
      if (value !== '' && !byLanguage.has(language)) byLanguage.set(language, value);
    }
    const ko = byLanguage.get('ko');
    const en = byLanguage.get('en');
    if (ko !== undefined && en !== undefined) return { ko, en };
    const only = ko ?? en;
    if (only !== undefined) {
      this.oneLanguageTexts += 1;
      return { ko: only, en: only };
    }
    const other = [...byLanguage.values()][0];
    if (other === undefined) return undefined;
    this.otherLanguageTexts += 1;
    return { ko: other, en: other };
  }

  reportOneLanguageTexts() {
    if (this.oneLanguageTexts > 0) {
      this.problem('note', {
        en: `${this.oneLanguageTexts} texts are in one language only: Korean and English were given the same text; translate them in the designer.`,
        ko: `텍스트 ${this.oneLanguageTexts}개가 한 언어로만 되어 있어 한국어와 영어에 같은 텍스트를 넣었습니다. 설계 화면에서 번역해 주세요.`,
      });
    }
    if (this.otherLanguageTexts > 0) {
      this.problem('note', {
        en: `${this.otherLanguageTexts} texts are in neither Korean nor English: they were used as they are for both.`,
        ko: `텍스트 ${this.otherLanguageTexts}개가 한국어도 영어도 아니어서 두 언어 모두에 그대로 넣었습니다.`,
      });
    }
  }

  /** A label: the element's translated texts, else the given fallback (a Name or key). */
  private label(container: Node | undefined, fallback: string): LocalizedText {
    return this.translated(container) ?? { ko: fallback, en: fallback };
  }

  readCodeLists(): CodeList[] {
    const { odm, cdms, own } = this.context;
    const taken = new Set<string>();
    const lists: CodeList[] = [];
    for (const [oid, node] of this.byOid('CodeList')) {
      if (children(node, cdms('BuiltIn')).length > 0) continue;
      const name = attribute(node, 'Name');
      const key =
        own && name !== undefined ? uniqueKey(name, taken) : uniqueKey(keyFromName(name, oid), taken);
      const codes: CodeList['codes'] = [];
      const seenCodes = new Set<string>();
      for (const item of byOrderNumber(children(node, odm('CodeListItem')))) {
        const code = attribute(item, 'CodedValue') ?? '';
        if (code === '' || seenCodes.has(code)) continue;
        seenCodes.add(code);
        codes.push({ code, label: this.label(children(item, odm('Decode'))[0], code) });
      }
      for (const item of byOrderNumber(children(node, odm('EnumeratedItem')))) {
        const code = attribute(item, 'CodedValue') ?? '';
        if (code === '' || seenCodes.has(code)) continue;
        seenCodes.add(code);
        codes.push({ code, label: { ko: code, en: code } });
      }
      if (codes.length === 0) {
        this.problem(
          'warning',
          {
            en: `Code list ${oid} has no codes (an external dictionary?): items using it are imported as text.`,
            ko: `코드 목록 ${oid}: 코드가 없습니다(외부 사전?). 이 목록을 쓰는 항목은 텍스트로 가져옵니다.`,
          },
          oid,
        );
        continue;
      }
      this.codeListKeys.set(oid, key);
      this.codeListSizes.set(oid, codes.length);
      lists.push({ key, codes });
    }
    return lists;
  }

  readForms(): FormDefinition[] {
    const { own, cdms } = this.context;
    const taken = new Set<string>();
    const forms: FormDefinition[] = [];
    for (const [oid, node] of this.byOid('FormDef')) {
      const name = attribute(node, 'Name');
      const key = own && name !== undefined ? uniqueKey(name, taken) : uniqueKey(this.keyFromOid(oid), taken);
      this.formKeys.set(oid, key);
      if (!own && attribute(node, 'Repeating') === 'Yes') {
        this.problem(
          'warning',
          {
            en: `Form ${oid} repeats in ODM; CDMS forms do not: it is imported once per visit (a repeating section holds repeated rows).`,
            ko: `양식 ${oid}: ODM에서 반복되는 양식입니다. CDMS 양식은 반복되지 않으므로 방문마다 한 번으로 가져옵니다(반복 행은 반복 섹션으로 받습니다).`,
          },
          oid,
        );
      }
      const extension = children(node, cdms('Form'))[0];
      const defaultLayout = this.json(
        children(extension, cdms('DefaultLayout'))[0],
        `${key} cdms:DefaultLayout`,
      ) as { section: string; items: string[] }[] | undefined;
      const form: FormDefinition = {
        key,
        label: this.label(children(node, this.context.odm('Description'))[0], name ?? key),
        sections: this.readSections(node, key, defaultLayout),
      };
      for (const [field, element] of [
        ['variants', 'Variants'],
        ['checks', 'Checks'],
        ['outcomes', 'Outcomes'],
      ] as const) {
        const value = this.json(children(extension, cdms(element))[0], `${key} cdms:${element}`);
        if (value !== undefined) (form as Record<string, unknown>)[field] = value;
      }
      if (form.sections.length === 0) {
        this.problem(
          'warning',
          {
            en: `Form ${oid} has no item groups: left out.`,
            ko: `양식 ${oid}: 항목 그룹이 없어 제외했습니다.`,
          },
          oid,
        );
        this.formKeys.delete(oid);
        continue;
      }
      forms.push(form);
    }
    return forms;
  }

  private readSections(
    formNode: Node,
    formKey: string,
    defaultLayout: { section: string; items: string[] }[] | undefined,
  ): SectionDefinition[] {
    const { odm, cdms, own } = this.context;
    const groups = this.byOid('ItemGroupDef');
    const takenSections = new Set<string>();
    // Item keys and repeating-group keys share one name space per form.
    const takenKeys = new Set<string>();
    const sections: SectionDefinition[] = [];
    for (const ref of byOrderNumber(children(formNode, odm('ItemGroupRef')))) {
      const groupOid = attribute(ref, 'ItemGroupOID') ?? '';
      const group = groups.get(groupOid);
      if (!group) {
        this.problem('warning', {
          en: `Form ${formKey}: item group ${groupOid} is not defined: left out.`,
          ko: `양식 ${formKey}: 정의되지 않은 항목 그룹이라 제외했습니다(${groupOid}).`,
        });
        continue;
      }
      const extension = children(group, cdms('Section'))[0];
      const name = attribute(group, 'Name');
      const sectionKey = uniqueKey(
        (extension && attribute(extension, 'Key')) || this.keyFromOid(groupOid),
        takenSections,
      );
      const section: SectionDefinition = {
        key: sectionKey,
        label: this.label(children(group, odm('Description'))[0], name ?? sectionKey),
        items: [],
      };
      const help = this.json(children(extension, cdms('Help'))[0], `${formKey}.${sectionKey} cdms:Help`);
      if (help !== undefined) section.help = help as LocalizedText;
      const notDoneItem = attribute(extension, 'NotDoneItem');
      if (notDoneItem !== undefined) section.notDoneItem = notDoneItem;
      const showWhen = this.condition(
        attribute(ref, 'CollectionExceptionConditionOID'),
        `${formKey}.${sectionKey}`,
      );
      if (showWhen) section.showWhen = showWhen;
      if (attribute(group, 'Repeating') === 'Yes') {
        const rowsKey = attribute(extension, 'RowsKey') ?? `${sectionKey}Rows`;
        section.repeating = { key: own ? rowsKey : uniqueKey(rowsKey, takenKeys) };
        const rowsRequired = attribute(extension, 'RowsRequired');
        if (rowsRequired !== undefined) section.repeating.rowsRequired = rowsRequired === 'true';
        const maxRows = attribute(extension, 'MaxRows');
        if (maxRows !== undefined) section.repeating.maxRows = Number(maxRows);
      }
      for (const itemRef of byOrderNumber(children(group, odm('ItemRef')))) {
        const item = this.readItem(itemRef, formKey, takenKeys, section.repeating !== undefined);
        if (item) section.items.push(item);
      }
      sections.push(section);
    }
    if (!defaultLayout) return sections;
    // A form with variants: its ItemGroupDefs hold every layout; the default layout is the listed part.
    return defaultLayout.flatMap((entry) => {
      const section = sections.find((candidate) => candidate.key === entry.section);
      if (!section) return [];
      const items = entry.items.flatMap((itemKey) => section.items.filter((item) => item.key === itemKey));
      return [{ ...section, items }];
    });
  }

  private readItem(
    itemRef: Node,
    formKey: string,
    takenKeys: Set<string>,
    inRepeatingGroup: boolean,
  ): ItemDefinition | undefined {
    const { odm, cdms, own } = this.context;
    const itemOid = attribute(itemRef, 'ItemOID') ?? '';
    const itemDef = this.byOid('ItemDef').get(itemOid);
    if (!itemDef) {
      this.problem('warning', {
        en: `Form ${formKey}: item ${itemOid} is not defined: left out.`,
        ko: `양식 ${formKey}: 정의되지 않은 항목이라 제외했습니다(${itemOid}).`,
      });
      return undefined;
    }
    const extension = children(itemDef, cdms('Item'))[0];
    const name = attribute(itemDef, 'Name');
    const key = own && name !== undefined ? name : uniqueKey(keyFromName(name, itemOid), takenKeys);
    const where = `${formKey}.${key}`;
    const dataType = attribute(itemDef, 'DataType') ?? 'text';
    const codeListOid = attribute(children(itemDef, odm('CodeListRef'))[0], 'CodeListOID');
    const codeListKey = codeListOid === undefined ? undefined : this.codeListKeys.get(codeListOid);

    let type: ItemType;
    const ownType = attribute(extension, 'Type') as ItemType | undefined;
    if (ownType !== undefined) type = ownType;
    else if (codeListKey !== undefined) type = 'singleChoice';
    else {
      type = TYPE_OF_DATA_TYPE[dataType] ?? 'text';
      if (TYPE_OF_DATA_TYPE[dataType] === undefined) {
        this.problem(
          'note',
          {
            en: `${where}: ODM type ${dataType} has no CDMS type: imported as text.`,
            ko: `${where}: ODM 유형(${dataType})에 맞는 CDMS 유형이 없어 텍스트로 가져왔습니다.`,
          },
          itemOid,
          key,
        );
      }
    }
    const item: ItemDefinition = {
      key,
      type,
      label: this.label(
        children(itemDef, odm('Question'))[0] ?? children(itemDef, odm('Description'))[0],
        name ?? key,
      ),
    };

    const unitOid = attribute(children(itemDef, odm('MeasurementUnitRef'))[0], 'MeasurementUnitOID');
    if (unitOid !== undefined) {
      const unit = this.unitSymbol(unitOid);
      if (unit !== undefined) item.unit = unit;
    }
    const length = Number(attribute(itemDef, 'Length'));
    const lengthApplies = own ? dataType === 'text' : type === 'text' || type === 'textarea';
    if (lengthApplies && Number.isInteger(length) && length > 0) item.maxLength = length;
    const digits = Number(attribute(itemDef, 'SignificantDigits'));
    if (type === 'decimal' && Number.isInteger(digits) && digits >= 0) {
      if (digits <= 6) item.decimals = digits;
      else
        this.problem(
          'note',
          {
            en: `${where}: ${digits} decimal places; CDMS keeps at most 6.`,
            ko: `${where}: 소수 자릿수 ${digits}. CDMS는 6자리까지만 둡니다.`,
          },
          itemOid,
          key,
        );
    }
    this.readRangeChecks(itemDef, item, itemOid, where);
    if (type === 'singleChoice' && codeListKey !== undefined) {
      item.codeList = codeListKey;
      // Another system's choice list: a few codes as radio buttons, a long list as a drop-down.
      if (!own) item.display = (this.codeListSizes.get(codeListOid ?? '') ?? 0) <= 5 ? 'radio' : 'select';
    }
    if (attribute(itemRef, 'Mandatory') === 'Yes') item.required = true;
    const showWhen = this.condition(attribute(itemRef, 'CollectionExceptionConditionOID'), where);
    if (showWhen) item.showWhen = showWhen;
    const derive = this.method(attribute(itemRef, 'MethodOID'), where);
    if (derive) {
      if (inRepeatingGroup && !own)
        this.problem('warning', {
          en: `${where}: a derivation inside a repeating group cannot be held: imported without it.`,
          ko: `${where}: 반복 그룹 안의 파생식은 둘 수 없어 파생식 없이 가져왔습니다.`,
        });
      else item.derive = derive;
    }
    const rest = this.json(extension, `${where} cdms:Item`);
    if (rest !== undefined) Object.assign(item, rest);
    return item;
  }

  private unitSymbol(unitOid: string): string | undefined {
    const { odm } = this.context;
    const definitions = children(this.context.study, odm('BasicDefinitions'))[0];
    const unit = children(definitions, odm('MeasurementUnit')).find(
      (node) => attribute(node, 'OID') === unitOid,
    );
    if (!unit) return undefined;
    const symbol = textOf(children(children(unit, odm('Symbol'))[0], odm('TranslatedText'))[0]).trim();
    return symbol || attribute(unit, 'Name') || undefined;
  }

  /** RangeChecks → min/max (Soft) and hardMin/hardMax (Hard); our own files name the bound. */
  private readRangeChecks(itemDef: Node, item: ItemDefinition, itemOid: string, where: string) {
    const { odm, cdms } = this.context;
    const checks = children(itemDef, odm('RangeCheck'));
    if (checks.length === 0) return;
    const numeric = item.type === 'integer' || item.type === 'decimal';
    const notTranslated = (what: string) =>
      this.problem(
        'warning',
        {
          en: `${where}: range check ${what} not translated: the item is imported without it.`,
          ko: `${where}: 변환하지 못한 범위 검사(${what}) 없이 항목을 가져왔습니다.`,
        },
        itemOid,
        item.key,
      );
    for (const check of checks) {
      const comparator = attribute(check, 'Comparator') ?? '';
      const softHard = attribute(check, 'SoftHard') ?? 'Soft';
      const values = children(check, odm('CheckValue')).map((node) => textOf(node).trim());
      const value = Number(values[0]);
      const ownBound = attribute(children(check, cdms('Bound'))[0], 'Name') as
        | 'min'
        | 'max'
        | 'hardMin'
        | 'hardMax'
        | undefined;
      if (ownBound) {
        item[ownBound] = value;
        continue;
      }
      const description = `${comparator} ${values.join(' ')}`.trim();
      if (!numeric || values.length !== 1 || values[0] === '' || !Number.isFinite(value)) {
        notTranslated(description);
        continue;
      }
      const hard = softHard === 'Hard';
      let bound: 'min' | 'max' | 'hardMin' | 'hardMax';
      let limit = value;
      if (comparator === 'GE' || comparator === 'GT') bound = hard ? 'hardMin' : 'min';
      else if (comparator === 'LE' || comparator === 'LT') bound = hard ? 'hardMax' : 'max';
      else {
        notTranslated(description);
        continue;
      }
      if (comparator === 'GT' || comparator === 'LT') {
        // CDMS bounds include their value: a whole number moves by one, a decimal keeps it (noted).
        if (item.type === 'integer' && Number.isInteger(value))
          limit = comparator === 'GT' ? value + 1 : value - 1;
        else
          this.problem(
            'note',
            {
              en: `${where}: ${description} became an inclusive bound (CDMS bounds include their value).`,
              ko: `${where}: 범위 검사(${description})를 경계값을 포함하는 범위로 가져왔습니다(CDMS 범위는 경계값을 포함합니다).`,
            },
            itemOid,
            item.key,
          );
      }
      if (item[bound] !== undefined) {
        notTranslated(`${description} (a second ${bound})`);
        continue;
      }
      item[bound] = limit;
    }
    // CDMS reads hardMin ≤ min ≤ max ≤ hardMax; another system's checks that do not are left out.
    const given = [item.hardMin, item.min, item.max, item.hardMax].filter((bound) => bound !== undefined);
    if (!given.every((bound, index) => index === 0 || (given[index - 1] as number) <= bound)) {
      notTranslated(`(${given.join(', ')}: out of order)`);
      delete item.hardMin;
      delete item.min;
      delete item.max;
      delete item.hardMax;
    }
  }

  /** The cdms expression of a ConditionDef or MethodDef, or undefined with a warning. */
  private expression(
    element: 'ConditionDef' | 'MethodDef',
    oid: string,
    where: string,
  ): Expression | undefined {
    const { odm } = this.context;
    const node = this.byOid(element).get(oid);
    const kind =
      element === 'ConditionDef' ? { en: 'show-when', ko: '표시 조건' } : { en: 'derivation', ko: '파생식' };
    if (!node) {
      this.problem('warning', {
        en: `${where}: ${kind.en} ${oid} is not defined: imported without it.`,
        ko: `${where}: 정의되지 않은 ${kind.ko}(${oid}) 없이 항목을 가져왔습니다.`,
      });
      return undefined;
    }
    const expressions = children(node, odm('FormalExpression'));
    const ours = expressions.find(
      (expression) => attribute(expression, 'Context') === CDMS_EXPRESSION_CONTEXT,
    );
    if (!ours) {
      const contexts =
        expressions.map((expression) => attribute(expression, 'Context') ?? '?').join(', ') || '-';
      const texts = expressions.map((expression) => textOf(expression).trim()).join(' | ');
      this.problem(
        'warning',
        {
          en: `${where}: ${kind.en} ${oid} (${contexts}) not translated: the item is imported without it. ${texts}`.trim(),
          ko: `${where}: 변환하지 못한 ${kind.ko}(${oid}, ${contexts}) 없이 항목을 가져왔습니다. ${texts}`.trim(),
        },
        oid,
      );
      return undefined;
    }
    return this.json(ours, `${where} ${oid}`) as Expression | undefined;
  }

  /** A show-when from ODM's CollectionExceptionCondition (when NOT collected): the negation is taken off. */
  private condition(oid: string | undefined, where: string): Expression | undefined {
    if (oid === undefined) return undefined;
    const hideWhen = this.expression('ConditionDef', oid, where);
    if (hideWhen === undefined) return undefined;
    if (typeof hideWhen === 'object' && hideWhen !== null && 'op' in hideWhen) {
      const [negated, ...more] = hideWhen.args ?? [];
      if (hideWhen.op === 'not' && negated !== undefined && more.length === 0) return negated;
    }
    return { op: 'not', args: [hideWhen] };
  }

  private method(oid: string | undefined, where: string): Expression | undefined {
    return oid === undefined ? undefined : this.expression('MethodDef', oid, where);
  }

  readVisits(forms: FormDefinition[]): {
    visits: VisitDefinition[];
    unscheduledVisit: UnscheduledVisitDefinition | undefined;
  } {
    const { odm, cdms, own } = this.context;
    const events = this.byOid('StudyEventDef');
    const protocol = children(this.context.metaDataVersion, odm('Protocol'))[0];
    const ordered = byOrderNumber(children(protocol, odm('StudyEventRef')))
      .map((ref) => attribute(ref, 'StudyEventOID') ?? '')
      .filter((oid) => events.has(oid));
    // Events the Protocol leaves out still hold forms: they follow in the file's order.
    const order = [...new Set([...ordered, ...events.keys()])];
    if (events.size > 0 && ordered.length < events.size && protocol) {
      this.problem('note', {
        en: `${events.size - ordered.length} study events are not in the Protocol: they follow the others in the file's order.`,
        ko: `시험 방문 ${events.size - ordered.length}개가 Protocol에 없어 파일의 순서대로 뒤에 두었습니다.`,
      });
    }
    const formsOf = (event: Node) =>
      byOrderNumber(children(event, odm('FormRef')))
        .map((ref) => this.formKeys.get(attribute(ref, 'FormOID') ?? ''))
        .filter((key): key is string => key !== undefined);
    const unscheduledEvents = order.filter((oid) => {
      const event = events.get(oid) as Node;
      return attribute(event, 'Type') === 'Unscheduled' && children(event, cdms('Visit')).length === 0;
    });
    const unscheduledOid =
      unscheduledEvents.length === 1 && formsOf(events.get(unscheduledEvents[0] as string) as Node).length > 0
        ? unscheduledEvents[0]
        : undefined;

    // REDCap calls every event Common: Common means "study-wide" only beside Scheduled events.
    const allCommon = [...events.values()].every((event) => attribute(event, 'Type') === 'Common');
    const taken = new Set<string>();
    const visits: VisitDefinition[] = [];
    let unscheduledVisit: UnscheduledVisitDefinition | undefined;
    for (const oid of order) {
      const event = events.get(oid) as Node;
      const name = attribute(event, 'Name');
      const label = this.label(children(event, odm('Description'))[0], name ?? oid);
      if (oid === unscheduledOid) {
        unscheduledVisit = { label, forms: formsOf(event) };
        continue;
      }
      const extension = children(event, cdms('Visit'))[0];
      const key = uniqueKey((extension && attribute(extension, 'Key')) || this.keyFromOid(oid), taken);
      const visit: VisitDefinition = {
        key,
        label,
        group:
          (attribute(extension, 'Group') as VisitGroup | undefined) ??
          this.ownCategory(event) ??
          this.foreignGroup(event, visits.length, allCommon),
        forms: formsOf(event),
      };
      const window = children(extension, cdms('Window'))[0];
      if (window) {
        visit.window = {
          anchorVisit: attribute(window, 'AnchorVisit') ?? '',
          offsetDays: Number(attribute(window, 'OffsetDays')),
          minusDays: Number(attribute(window, 'MinusDays')),
          plusDays: Number(attribute(window, 'PlusDays')),
        };
      }
      if (!own && attribute(event, 'Repeating') === 'Yes') {
        this.problem(
          'warning',
          {
            en: `Study event ${oid} repeats in ODM: imported as one visit.`,
            ko: `시험 방문 ${oid}: ODM에서 반복되는 방문입니다. 방문 하나로 가져왔습니다.`,
          },
          oid,
        );
      }
      visits.push(visit);
    }
    if (visits.length === 0) {
      // A file of forms only (no events): one visit holds them all, so the study works.
      this.problem('note', {
        en: 'The file defines no study events: one visit "visit1" holds every form.',
        ko: '파일에 시험 방문(StudyEventDef)이 없어 모든 양식을 방문 "visit1" 하나에 두었습니다.',
      });
      visits.push({
        key: uniqueKey('visit1', taken),
        label: { ko: '방문 1', en: 'Visit 1' },
        group: 'baseline',
        forms: forms.map((form) => form.key),
      });
    }
    return { visits, unscheduledVisit };
  }

  /** The visit group in our plain files' StudyEventDef Category (another system's Category is its own). */
  private ownCategory(event: Node): VisitGroup | undefined {
    const group = visitGroupSchema.safeParse(attribute(event, 'Category'));
    return this.context.ourKeys && group.success ? group.data : undefined;
  }

  /** Another system's event: Common (study-wide forms) is "all"; the first is the baseline, then follow-ups. */
  private foreignGroup(event: Node, index: number, allCommon: boolean): VisitGroup {
    if (attribute(event, 'Type') === 'Common' && !allCommon) return 'all';
    return index === 0 ? 'baseline' : 'follow_up';
  }
}
