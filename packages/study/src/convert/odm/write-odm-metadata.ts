import { YES_NO_CODES } from '../../engine/study-index.ts';
import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import type {
  CodeList,
  FormDefinition,
  ItemDefinition,
  SectionDefinition,
  StudyDefinition,
  VisitDefinition,
} from '../../model/study-definition.ts';
import { textElement, xmlAttributes } from '../xml-escape.ts';
import {
  CDMS_EXPRESSION_CONTEXT,
  CDMS_ODM_NAMESPACE,
  CDMS_PREFIX,
  CDMS_SOURCE_SYSTEM,
  ODM_NAMESPACE,
  metadataOids as oids,
  UNSCHEDULED_EVENT_KEY,
  YES_NO_CODE_LIST_KEY,
} from './odm-metadata-names.ts';

/**
 * A study definition as a CDISC ODM 1.3.2 metadata document (FileType Snapshot, Granularity Metadata):
 * the design, not clinical data. ODM says what it can: the visits in protocol order (StudyEventDef,
 * the unscheduled visits as one repeating event), forms, sections (ItemGroupDef, repeating where the
 * section is a repeating group), items (DataType, Length, SignificantDigits, unit, RangeChecks, code
 * list, question in ko and en), code lists, show-when (ConditionDef) and derivations (MethodDef) with
 * our expression as JSON in `FormalExpression Context="cdms"`.
 *
 * What ODM cannot say rides in the CDMS extension (namespace CDMS_ODM_NAMESPACE, schema
 * packages/study/odm/cdms-odm-extension.xsd), each part beside the ODM element it belongs to: visit
 * groups and windows, sections' help and repeating-group keys, items' own type and other fields (help,
 * requiredWhen, pattern, severities…), forms' checks, outcomes and variants, and the study's
 * parameters, status rules and roles. `readOdmMetadata` reads the document back to the same definition.
 *
 * Show-when and ODM's CollectionExceptionCondition point opposite ways: ODM's condition says when an
 * item is NOT collected. The ConditionDef's expression is therefore the negation
 * `{"op": "not", "args": [showWhen]}`, and the reader takes the `not` off again.
 *
 * A form with visit variants: its ItemGroupDefs hold the union of every layout (as in the data exports,
 * so each stored value has its ItemDef); the first layout that names a section or item decides its
 * ODM attributes, and `cdms:Form` keeps the default layout's keys and the variants whole.
 *
 * One version; `writeOdmMetadataVersions` writes several in one file, and `extensions: false` writes
 * plain ODM without any of the extension.
 */
export function writeOdmMetadata(definition: StudyDefinition, options: WriteOdmMetadataOptions = {}): string {
  return writeOdmMetadataVersions([definition], options);
}

export interface WriteOdmMetadataOptions {
  /** The Study OID; `S.<study key>` by default, as in the data exports. */
  studyOid?: string;
  /** ODM's CreationDateTime; now by default. */
  creationDateTime?: string;
  /** ODM's FileOID; `ODM.<study key>.<newest version>.metadata` by default. */
  fileOid?: string;
  /**
   * false: plain ODM 1.3.2 for systems that validate against the bare schema: no `cdms:` element or
   * attribute at all (what ODM cannot say is left out). Show-when and derivations are still written, as
   * standard `FormalExpression Context="cdms"` that other systems may ignore. true by default.
   */
  extensions?: boolean;
}

/**
 * Several versions of one study definition as one ODM 1.3.2 metadata document: the Study holds one
 * complete MetaDataVersion per definition version (OID `MDV.<version>`, no `Include`), in the order
 * given, which is to be oldest first (ODM's order; a reader takes the last as the current one). The
 * Study's names are the newest version's; BasicDefinitions holds the units of every version
 * (`writeOdmStudyMetadata`, which throws as it says).
 */
export function writeOdmMetadataVersions(
  versions: StudyDefinition[],
  options: WriteOdmMetadataOptions = {},
): string {
  const newest = versions.at(-1);
  if (!newest) throw new Error('writeOdmMetadataVersions: no definition version to write');
  const extensions = options.extensions ?? true;
  const studyOid = options.studyOid ?? oids.study(newest.key);
  const fileOid = options.fileOid ?? `ODM.${newest.key}.${newest.version}.metadata`;
  const creationDateTime = options.creationDateTime ?? new Date().toISOString();
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<ODM${xmlAttributes({
      xmlns: ODM_NAMESPACE,
      ...odmExtensionNamespace({ extensions }),
      FileType: 'Snapshot',
      Granularity: 'Metadata',
      FileOID: fileOid,
      CreationDateTime: creationDateTime,
      ODMVersion: '1.3.2',
      // The reader knows by it that the OIDs spell our keys, even in a file without the extension.
      SourceSystem: CDMS_SOURCE_SYSTEM,
    })}>`,
    `<Study${xmlAttributes({ OID: studyOid })}>`,
    writeOdmStudyMetadata(versions, { extensions }),
    '</Study></ODM>\n',
  ].join('');
}

/** The ODM root's declaration of the extension's prefix, when the file carries the extension. */
export function odmExtensionNamespace(options: { extensions?: boolean } = {}): Record<string, string> {
  return (options.extensions ?? true) ? { [`xmlns:${CDMS_PREFIX}`]: CDMS_ODM_NAMESPACE } : {};
}

/**
 * What a 1.3.2 Study element holds of the design, in the schema's order: GlobalVariables,
 * BasicDefinitions (the units of every version) and one complete MetaDataVersion per version, oldest
 * first. `writeOdmMetadataVersions` puts it in a metadata file; the server's ODM 1.3.2 data exports put
 * it before their AdminData and ClinicalData, so a data export carries the whole design too (the root
 * element must then declare `odmExtensionNamespace`).
 *
 * Throws when the list is empty, or its definitions are not distinct versions of one study (two equal
 * versions would give two MetaDataVersions one OID).
 */
export function writeOdmStudyMetadata(
  versions: StudyDefinition[],
  options: { extensions?: boolean } = {},
): string {
  const newest = versions.at(-1);
  if (!newest) throw new Error('writeOdmStudyMetadata: no definition version to write');
  if (versions.some((definition) => definition.key !== newest.key))
    throw new Error('writeOdmStudyMetadata: the definitions are not versions of one study (different keys)');
  if (new Set(versions.map((definition) => definition.version)).size !== versions.length)
    throw new Error('writeOdmStudyMetadata: a version is given twice');

  const extensions = options.extensions ?? true;
  // One unit map for the whole file, so a symbol has the same OID in every version.
  const units = new Map<string, string>();
  const layouts = versions.map((definition) => collectLayout(definition, units, extensions));
  const parts: string[] = [
    `<GlobalVariables>${textElement('StudyName', newest.key)}${textElement(
      'StudyDescription',
      newest.label.en,
    )}${textElement('ProtocolName', newest.key)}</GlobalVariables>`,
  ];
  if (units.size > 0) {
    parts.push('<BasicDefinitions>');
    for (const [symbol, oid] of units) {
      parts.push(
        `<MeasurementUnit${xmlAttributes({ OID: oid, Name: symbol })}><Symbol>${textElement('TranslatedText', symbol)}</Symbol></MeasurementUnit>`,
      );
    }
    parts.push('</BasicDefinitions>');
  }
  versions.forEach((definition, index) => {
    parts.push(metaDataVersionXml(definition, layouts[index] as Layout));
  });
  return parts.join('');
}

/** One complete MetaDataVersion: the protocol, events, forms, groups, items, code lists, conditions, methods. */
function metaDataVersionXml(definition: StudyDefinition, layout: Layout): string {
  const parts: string[] = [
    `<MetaDataVersion${xmlAttributes({
      OID: oids.metaDataVersion(definition.version),
      Name: `${definition.label.en} ${definition.version}`,
    })}>`,
  ];

  // Protocol: the visits in order, the unscheduled visits' event last.
  const eventOids = definition.visits.map((visit) => oids.event(visit.key));
  if (definition.unscheduledVisit) eventOids.push(oids.event(UNSCHEDULED_EVENT_KEY));
  parts.push(
    `<Protocol>${eventOids
      .map(
        (oid, index) =>
          `<StudyEventRef${xmlAttributes({ StudyEventOID: oid, OrderNumber: index + 1, Mandatory: 'No' })}/>`,
      )
      .join('')}</Protocol>`,
  );
  for (const visit of definition.visits) parts.push(studyEventDefXml(visit, layout));
  if (definition.unscheduledVisit) {
    parts.push(
      `<StudyEventDef${xmlAttributes({ OID: oids.event(UNSCHEDULED_EVENT_KEY), Name: UNSCHEDULED_EVENT_KEY, Repeating: 'Yes', Type: 'Unscheduled' })}>`,
      translated('Description', definition.unscheduledVisit.label),
      formRefsXml(definition.unscheduledVisit.forms),
      '</StudyEventDef>',
    );
  }
  for (const form of definition.forms) parts.push(formDefXml(form, layout));
  for (const group of layout.groups) parts.push(itemGroupDefXml(group, layout));
  for (const itemDef of layout.items.values()) parts.push(itemDefXml(itemDef, layout));
  for (const list of definition.codeLists) parts.push(codeListXml(list, false, layout));
  if (layout.usesYesNo && !definition.codeLists.some((list) => list.key === YES_NO_CODE_LIST_KEY)) {
    parts.push(codeListXml({ key: YES_NO_CODE_LIST_KEY, codes: YES_NO_CODES }, true, layout));
  }
  for (const group of layout.groups) {
    if (group.section.showWhen)
      parts.push(conditionDefXml(oids.condition(group.oid), group.oid, group.section.showWhen));
  }
  for (const itemDef of layout.items.values()) {
    if (itemDef.item.showWhen)
      parts.push(conditionDefXml(oids.condition(itemDef.oid), itemDef.oid, itemDef.item.showWhen));
  }
  for (const itemDef of layout.items.values()) {
    if (itemDef.item.derive) parts.push(methodDefXml(itemDef));
  }
  if (layout.extensions) parts.push(studyExtensionXml(definition));
  parts.push('</MetaDataVersion>');
  return parts.join('');
}

/** An ItemDef: the first layout of its form that holds the item decides it. */
interface ItemDefEntry {
  oid: string;
  formKey: string;
  item: ItemDefinition;
}

/** An ItemGroupDef: a section of a form (the first layout that has the key decides its attributes). */
interface GroupEntry {
  oid: string;
  formKey: string;
  section: SectionDefinition;
  /** The ItemOIDs of every layout's section of this key, in the order first met. */
  itemOids: string[];
}

interface Layout {
  groups: GroupEntry[];
  groupOidsByForm: Map<string, string[]>;
  items: Map<string, ItemDefEntry>;
  /** Unit symbol → OID, in the order first used, shared by every version of the file. */
  units: Map<string, string>;
  usesYesNo: boolean;
  /** Whether the CDMS extension is written (false: plain ODM 1.3.2). */
  extensions: boolean;
}

/** Groups, items and units of the definition, in the order of the server's data exports. */
function collectLayout(definition: StudyDefinition, units: Map<string, string>, extensions: boolean): Layout {
  const layout: Layout = {
    groups: [],
    groupOidsByForm: new Map(),
    items: new Map(),
    units,
    usesYesNo: false,
    extensions,
  };
  const groupsByOid = new Map<string, GroupEntry>();
  const addUnit = (symbol: string) => {
    if (layout.units.has(symbol)) return;
    // Two symbols with the same letters (kg/m² and kg/m³) get _2, _3… as in the data exports.
    const taken = new Set(layout.units.values());
    const base = oids.unit(symbol);
    let oid = base;
    for (let n = 2; taken.has(oid); n += 1) oid = `${base}_${n}`;
    layout.units.set(symbol, oid);
  };
  for (const form of definition.forms) {
    const groupOids: string[] = [];
    for (const sections of [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)]) {
      for (const section of sections) {
        const groupOid = oids.itemGroup(form.key, section.key);
        let group = groupsByOid.get(groupOid);
        if (!group) {
          group = { oid: groupOid, formKey: form.key, section, itemOids: [] };
          groupsByOid.set(groupOid, group);
          layout.groups.push(group);
          groupOids.push(groupOid);
        }
        for (const item of section.items) {
          const itemOid = oids.item(form.key, item.key);
          if (!layout.items.has(itemOid)) {
            layout.items.set(itemOid, { oid: itemOid, formKey: form.key, item });
            if (item.unit !== undefined) addUnit(item.unit);
            if (item.type === 'yesNo') layout.usesYesNo = true;
          }
          if (!group.itemOids.includes(itemOid)) group.itemOids.push(itemOid);
        }
      }
    }
    layout.groupOidsByForm.set(form.key, groupOids);
  }
  return layout;
}

/** `<name><TranslatedText xml:lang="ko">…</TranslatedText><TranslatedText xml:lang="en">…</…></name>`. */
function translated(name: string, text: LocalizedText): string {
  return `<${name}>${textElement('TranslatedText', text.ko, { 'xml:lang': 'ko' })}${textElement('TranslatedText', text.en, { 'xml:lang': 'en' })}</${name}>`;
}

/** An extension element holding a JSON value as its text. */
function jsonElement(name: string, value: unknown): string {
  return textElement(`${CDMS_PREFIX}:${name}`, JSON.stringify(value));
}

function formRefsXml(formKeys: string[]): string {
  return formKeys
    .map(
      (formKey, index) =>
        `<FormRef${xmlAttributes({ FormOID: oids.form(formKey), OrderNumber: index + 1, Mandatory: 'No' })}/>`,
    )
    .join('');
}

function studyEventDefXml(visit: VisitDefinition, layout: Layout): string {
  const window = visit.window
    ? `<${CDMS_PREFIX}:Window${xmlAttributes({
        AnchorVisit: visit.window.anchorVisit,
        OffsetDays: visit.window.offsetDays,
        MinusDays: visit.window.minusDays,
        PlusDays: visit.window.plusDays,
      })}/>`
    : '';
  return [
    `<StudyEventDef${xmlAttributes({
      OID: oids.event(visit.key),
      Name: visit.key,
      Repeating: 'No',
      // The visit holding the "all" forms (adverse events, medications…) is ODM's Common event.
      Type: visit.group === 'all' ? 'Common' : 'Scheduled',
      // ODM's free-text Category holds the visit group, for plain files and for other systems.
      Category: visit.group,
    })}>`,
    translated('Description', visit.label),
    formRefsXml(visit.forms),
    layout.extensions
      ? `<${CDMS_PREFIX}:Visit${xmlAttributes({ Key: visit.key, Group: visit.group })}>${window}</${CDMS_PREFIX}:Visit>`
      : '',
    '</StudyEventDef>',
  ].join('');
}

function formDefXml(form: FormDefinition, layout: Layout): string {
  const groupOids = layout.groupOidsByForm.get(form.key) ?? [];
  const groupsByOid = new Map(layout.groups.map((group) => [group.oid, group]));
  const parts = [
    `<FormDef${xmlAttributes({ OID: oids.form(form.key), Name: form.key, Repeating: 'No' })}>`,
    translated('Description', form.label),
  ];
  groupOids.forEach((groupOid, index) => {
    const showWhen = groupsByOid.get(groupOid)?.section.showWhen;
    parts.push(
      `<ItemGroupRef${xmlAttributes({
        ItemGroupOID: groupOid,
        OrderNumber: index + 1,
        Mandatory: 'No',
        CollectionExceptionConditionOID: showWhen ? oids.condition(groupOid) : undefined,
      })}/>`,
    );
  });
  // The rest of the form in the extension: the default layout's keys only when variants make the
  // ItemGroupDefs a union of layouts.
  const extension: string[] = [];
  if (form.variants) {
    const defaultLayout = form.sections.map((section) => ({
      section: section.key,
      items: section.items.map((item) => item.key),
    }));
    extension.push(jsonElement('DefaultLayout', defaultLayout), jsonElement('Variants', form.variants));
  }
  if (form.checks) extension.push(jsonElement('Checks', form.checks));
  if (form.outcomes) extension.push(jsonElement('Outcomes', form.outcomes));
  if (layout.extensions && extension.length > 0)
    parts.push(`<${CDMS_PREFIX}:Form>${extension.join('')}</${CDMS_PREFIX}:Form>`);
  parts.push('</FormDef>');
  return parts.join('');
}

function itemGroupDefXml(group: GroupEntry, layout: Layout): string {
  const { section } = group;
  const parts = [
    `<ItemGroupDef${xmlAttributes({
      OID: group.oid,
      Name: `${group.formKey}.${section.key}`,
      Repeating: section.repeating ? 'Yes' : 'No',
    })}>`,
    translated('Description', section.label),
  ];
  group.itemOids.forEach((itemOid, index) => {
    const item = layout.items.get(itemOid)?.item;
    parts.push(
      `<ItemRef${xmlAttributes({
        ItemOID: itemOid,
        OrderNumber: index + 1,
        Mandatory: item?.required === true ? 'Yes' : 'No',
        MethodOID: item?.derive ? oids.method(itemOid) : undefined,
        CollectionExceptionConditionOID: item?.showWhen ? oids.condition(itemOid) : undefined,
      })}/>`,
    );
  });
  if (layout.extensions) {
    const help = section.help ? jsonElement('Help', section.help) : '';
    parts.push(
      `<${CDMS_PREFIX}:Section${xmlAttributes({
        Key: section.key,
        RowsKey: section.repeating?.key,
        RowsRequired: section.repeating?.rowsRequired,
        MaxRows: section.repeating?.maxRows,
        NotDoneItem: section.notDoneItem,
      })}>${help}</${CDMS_PREFIX}:Section>`,
    );
  }
  parts.push('</ItemGroupDef>');
  return parts.join('');
}

export interface OdmRangeCheck {
  bound: 'hardMin' | 'min' | 'max' | 'hardMax';
  comparator: 'GE' | 'LE';
  softHard: 'Soft' | 'Hard';
  value: number;
}

/** The ODM DataTypes our items are written with. */
export type OdmDataType = 'text' | 'integer' | 'float' | 'date' | 'time' | 'boolean';

/** ODM's DataType of an item type: the data exports (apps/server/src/odm) write the same. */
export function odmDataTypeOf(item: ItemDefinition): OdmDataType {
  switch (item.type) {
    case 'integer':
      return 'integer';
    case 'decimal':
      return 'float';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'checkbox':
      return 'boolean';
    default:
      return 'text';
  }
}

/**
 * The RangeChecks of an item, each naming the bound it is: the soft range (min/max, Soft unless its
 * severity is hard) and the hard limits (hardMin/hardMax, always Hard: the save refuses past them).
 * The server's ODM 2.0 data exports write the same checks.
 */
export function odmRangeChecks(item: ItemDefinition): OdmRangeCheck[] {
  const softHard = item.rangeSeverity === 'hard' ? 'Hard' : 'Soft';
  const checks: OdmRangeCheck[] = [];
  if (item.hardMin !== undefined)
    checks.push({ bound: 'hardMin', comparator: 'GE', softHard: 'Hard', value: item.hardMin });
  if (item.min !== undefined) checks.push({ bound: 'min', comparator: 'GE', softHard, value: item.min });
  if (item.max !== undefined) checks.push({ bound: 'max', comparator: 'LE', softHard, value: item.max });
  if (item.hardMax !== undefined)
    checks.push({ bound: 'hardMax', comparator: 'LE', softHard: 'Hard', value: item.hardMax });
  return checks;
}

/**
 * The item's fields ODM says in its own elements and attributes; every other field goes to the
 * extension as JSON. A field ODM could say only for some types (Length for text, SignificantDigits for
 * decimals, CodeListRef for a single choice, Mandatory only "Yes") goes to the extension otherwise.
 */
function fieldsOdmSays(item: ItemDefinition): Set<keyof ItemDefinition> {
  const said = new Set<keyof ItemDefinition>([
    'key',
    'type',
    'label',
    'unit',
    'min',
    'max',
    'hardMin',
    'hardMax',
    'showWhen',
    'derive',
  ]);
  if (odmDataTypeOf(item) === 'text') said.add('maxLength');
  if (item.type === 'decimal') said.add('decimals');
  if (item.type === 'singleChoice') said.add('codeList');
  if (item.required === true) said.add('required');
  return said;
}

function itemDefXml(itemDef: ItemDefEntry, layout: Layout): string {
  const { item } = itemDef;
  const dataType = odmDataTypeOf(item);
  const parts = [
    `<ItemDef${xmlAttributes({
      OID: itemDef.oid,
      Name: item.key,
      DataType: dataType,
      Length: dataType === 'text' ? item.maxLength : undefined,
      SignificantDigits: item.type === 'decimal' ? item.decimals : undefined,
    })}>`,
  ];
  if (item.type === 'multipleChoice' && item.codeList !== undefined) {
    // As in the data exports: a multiple choice's value is several codes, not one code of the list.
    parts.push(
      translated('Description', {
        ko: `여러 코드를 쉼표로 구분합니다 (${oids.codeList(item.codeList)}).`,
        en: `Several codes separated by commas (${oids.codeList(item.codeList)}).`,
      }),
    );
  }
  parts.push(translated('Question', item.label));
  if (item.unit !== undefined) {
    parts.push(`<MeasurementUnitRef${xmlAttributes({ MeasurementUnitOID: layout.units.get(item.unit) })}/>`);
  }
  for (const check of odmRangeChecks(item)) {
    const bound = layout.extensions ? `<${CDMS_PREFIX}:Bound${xmlAttributes({ Name: check.bound })}/>` : '';
    parts.push(
      `<RangeCheck${xmlAttributes({ Comparator: check.comparator, SoftHard: check.softHard })}>${textElement('CheckValue', String(check.value))}${bound}</RangeCheck>`,
    );
  }
  if (item.type === 'yesNo') {
    parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: oids.codeList(YES_NO_CODE_LIST_KEY) })}/>`);
  } else if (item.type === 'singleChoice' && item.codeList !== undefined) {
    parts.push(`<CodeListRef${xmlAttributes({ CodeListOID: oids.codeList(item.codeList) })}/>`);
  }
  if (layout.extensions) {
    const said = fieldsOdmSays(item);
    const rest = Object.fromEntries(
      Object.entries(item).filter(([field]) => !said.has(field as keyof ItemDefinition)),
    );
    parts.push(
      textElement(`${CDMS_PREFIX}:Item`, Object.keys(rest).length > 0 ? JSON.stringify(rest) : '', {
        Type: item.type,
      }),
    );
  }
  parts.push('</ItemDef>');
  return parts.join('');
}

function codeListXml(list: CodeList, builtIn: boolean, layout: Layout): string {
  const parts = [
    `<CodeList${xmlAttributes({ OID: oids.codeList(list.key), Name: list.key, DataType: 'text' })}>`,
  ];
  list.codes.forEach((code, index) => {
    parts.push(
      `<CodeListItem${xmlAttributes({ CodedValue: code.code, OrderNumber: index + 1 })}>${translated('Decode', code.label)}</CodeListItem>`,
    );
  });
  if (builtIn && layout.extensions) parts.push(`<${CDMS_PREFIX}:BuiltIn/>`);
  parts.push('</CodeList>');
  return parts.join('');
}

/** A show-when as ODM's CollectionExceptionCondition: not collected when the negation holds. */
function conditionDefXml(oid: string, targetOid: string, showWhen: Expression): string {
  const hideWhen: Expression = { op: 'not', args: [showWhen] };
  return [
    `<ConditionDef${xmlAttributes({ OID: oid, Name: `hide ${targetOid}` })}>`,
    translated('Description', {
      ko: `${targetOid}: 표시 조건이 거짓이면 수집하지 않습니다 (식은 표시 조건의 부정).`,
      en: `${targetOid}: not collected while its show-when is false (the expression is its negation).`,
    }),
    textElement('FormalExpression', JSON.stringify(hideWhen), { Context: CDMS_EXPRESSION_CONTEXT }),
    '</ConditionDef>',
  ].join('');
}

function methodDefXml(itemDef: ItemDefEntry): string {
  return [
    `<MethodDef${xmlAttributes({ OID: oids.method(itemDef.oid), Name: `derive ${itemDef.oid}`, Type: 'Computation' })}>`,
    translated('Description', {
      ko: `${itemDef.oid}: CDMS가 계산하는 값입니다.`,
      en: `${itemDef.oid}: a value CDMS computes.`,
    }),
    textElement('FormalExpression', JSON.stringify(itemDef.item.derive), {
      Context: CDMS_EXPRESSION_CONTEXT,
    }),
    '</MethodDef>',
  ].join('');
}

/** The study-wide parts ODM has no place for. */
function studyExtensionXml(definition: StudyDefinition): string {
  const parts = [`<${CDMS_PREFIX}:Definition${xmlAttributes({ Version: definition.version })}>`];
  if (definition.visitDate) parts.push(jsonElement('VisitDate', definition.visitDate));
  if (definition.parameters) parts.push(jsonElement('Parameters', definition.parameters));
  if (definition.subjectStatus) parts.push(jsonElement('SubjectStatus', definition.subjectStatus));
  if (definition.roles) parts.push(jsonElement('Roles', definition.roles));
  parts.push(`</${CDMS_PREFIX}:Definition>`);
  return parts.join('');
}
