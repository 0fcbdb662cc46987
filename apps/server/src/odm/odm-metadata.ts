import {
  type Code,
  type ItemDefinition,
  type LocalizedText,
  type OdmDataType,
  odmDataTypeOf,
  odmMetadataOids,
  type StudyDefinition,
  sectionsForVisit,
  UNSCHEDULED_EVENT_KEY,
  unscheduledRepeatKey,
  YES_NO_CODES,
} from '@cdms/study';

/**
 * The ODM view of a study definition, shared by the 1.3.2 and 2.0 writers and the round-trip tests:
 * a StudyEventDef per visit, a FormDef per form, an ItemGroupDef per section (a repeating section
 * is a repeating group), an ItemDef per item of a form, a CodeList per code list (and the built-in
 * yes/no list), a MeasurementUnit per unit symbol. OIDs are built from the definition's keys, which
 * never change once data exist, so the same study gives the same OIDs in every export:
 * `SE.v1`, `F.vitalSigns`, `IG.vitalSigns.main`, `I.vitalSigns.systolic`, `CL.gender`, `MU.mmHg`.
 * Keys keep their case (camelCase keys upper-cased could collide and read worse).
 */

export const oids = {
  // The design's OIDs are the metadata export's (packages/study), so a data export and a design
  // export of one study agree; the people, places, signatures and queries are the data's own.
  ...odmMetadataOids,
  user: (userId: number) => `U.${userId}`,
  /** Who acts when no person does (derived values, system queries, CLI). */
  systemUser: 'U.SYSTEM',
  location: (siteCode: string) => `LOC.${siteCode}`,
  signatureDef: 'SD.CASEBOOK',
  query: (queryId: number) => `Q.${queryId}`,
} as const;

export { UNSCHEDULED_EVENT_KEY };

/** The ODM event of a stored visit key: its StudyEventDef's key and, for an unscheduled visit, the repeat key. */
export function odmEventOf(visitKey: string): { eventKey: string; repeatKey?: string } {
  const repeatKey = unscheduledRepeatKey(visitKey);
  return repeatKey === undefined
    ? { eventKey: visitKey }
    : { eventKey: UNSCHEDULED_EVENT_KEY, repeatKey: String(repeatKey) };
}

/** A StudyEventDef's Type: the "all" forms' event Common, the unscheduled visits' Unscheduled. */
export function eventType(event: Pick<OdmEventDef, 'common' | 'unscheduled'>): string {
  if (event.unscheduled) return 'Unscheduled';
  return event.common ? 'Common' : 'Scheduled';
}

/** The code list every yesNo item refers to. */
export const YES_NO_CODE_LIST_KEY = 'yesNo';

export interface OdmItemDef {
  oid: string;
  formKey: string;
  item: ItemDefinition;
  dataType: OdmDataType;
  /** Text length limit, or the digits of a number when the definition bounds it. */
  length?: number;
  /** Digits after the decimal point (decimal items). */
  significantDigits?: number;
  codeListOid?: string;
  unitOid?: string;
  /** Several codes in one value (multipleChoice). */
  multiple: boolean;
}

export interface OdmItemGroupDef {
  oid: string;
  formKey: string;
  sectionKey: string;
  label: LocalizedText;
  /** The key the rows are stored under when the section is a repeating group. */
  repeatingKey?: string;
  itemOids: string[];
}

export interface OdmFormDef {
  oid: string;
  key: string;
  label: LocalizedText;
  itemGroupOids: string[];
}

export interface OdmEventDef {
  oid: string;
  key: string;
  label: LocalizedText;
  /** The visit holding the "all" forms (AEs, drugs…): data belong to the study, not to a date. */
  common: boolean;
  /** The unscheduled visits' event: repeating, Type "Unscheduled". */
  unscheduled: boolean;
  formOids: string[];
}

export interface OdmCodeList {
  oid: string;
  key: string;
  codes: Code[];
}

export interface OdmMetadata {
  studyOid: string;
  studyCode: string;
  studyLabel: LocalizedText;
  metaDataVersionOid: string;
  version: string;
  events: OdmEventDef[];
  forms: OdmFormDef[];
  itemGroups: OdmItemGroupDef[];
  items: OdmItemDef[];
  codeLists: OdmCodeList[];
  units: { oid: string; symbol: string }[];
  /** Where a stored value goes: `visit|form|key` (a top-level item or a repeating group's key). */
  placeOf(visitKey: string, formKey: string, storedKey: string): StoredKeyPlace | undefined;
  /**
   * Every stored key's place in one form at one visit: the export looks the form up once and then
   * each value by its key alone (a lookup by visit, form and key per value was a tenth of an export).
   */
  placesOf(visitKey: string, formKey: string): Map<string, StoredKeyPlace> | undefined;
  itemByOid: Map<string, OdmItemDef>;
  /** An item's place in its group's ItemRefs, by `groupOid|itemOid` (the data follow the definition's order). */
  itemOrder: Map<string, number>;
}

/**
 * A stored key's place in the ODM tree: a plain item of a group, or a repeating group's rows. `order`
 * is an item's place among its group's ItemRefs (`itemOrder`), `columnOrder` each column's.
 */
export type StoredKeyPlace =
  | { kind: 'item'; itemGroupOid: string; item: OdmItemDef; order: number }
  | {
      kind: 'rows';
      itemGroupOid: string;
      columns: Map<string, OdmItemDef>;
      columnOrder: Map<string, number>;
    };

/** Builds the ODM metadata of a study definition (pure; the same definition gives the same result). */
export function buildOdmMetadata(
  definition: StudyDefinition,
  study: { code: string; version: string },
): OdmMetadata {
  // Unit symbol → OID, in the order the definition first uses them, so the same definition always
  // gives the same OIDs; two symbols with the same letters (kg/m² and kg/m³) get _2, _3….
  const units = new Map<string, string>();
  const unitOidOf = (symbol: string): string => {
    const known = units.get(symbol);
    if (known) return known;
    const taken = new Set(units.values());
    const base = oids.unit(symbol);
    let oid = base;
    for (let n = 2; taken.has(oid); n += 1) oid = `${base}_${n}`;
    units.set(symbol, oid);
    return oid;
  };
  const items = new Map<string, OdmItemDef>();
  const itemGroups = new Map<string, OdmItemGroupDef>();
  const forms: OdmFormDef[] = [];
  const usesYesNo = { value: false };

  const itemDefOf = (formKey: string, item: ItemDefinition): OdmItemDef => {
    const oid = oids.item(formKey, item.key);
    const known = items.get(oid);
    if (known) return known;
    let codeListOid: string | undefined;
    if (item.type === 'yesNo') {
      usesYesNo.value = true;
      codeListOid = oids.codeList(YES_NO_CODE_LIST_KEY);
    } else if (item.codeList !== undefined) codeListOid = oids.codeList(item.codeList);
    const unitOid = item.unit === undefined ? undefined : unitOidOf(item.unit);
    const dataType = odmDataTypeOf(item);
    const made: OdmItemDef = {
      oid,
      formKey,
      item,
      dataType,
      multiple: item.type === 'multipleChoice',
      ...(dataType === 'text' && item.maxLength !== undefined ? { length: item.maxLength } : {}),
      ...(item.type === 'decimal' && item.decimals !== undefined ? { significantDigits: item.decimals } : {}),
      ...(codeListOid !== undefined ? { codeListOid } : {}),
      ...(unitOid !== undefined ? { unitOid } : {}),
    };
    items.set(oid, made);
    return made;
  };

  // A form's sections are the union over its default layout and its visit variants: a section key
  // met again in a variant adds the items it did not have yet to the same ItemGroupDef.
  for (const form of definition.forms) {
    const groupOids: string[] = [];
    const layouts = [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)];
    for (const sections of layouts) {
      for (const section of sections) {
        const oid = oids.itemGroup(form.key, section.key);
        let group = itemGroups.get(oid);
        if (!group) {
          group = {
            oid,
            formKey: form.key,
            sectionKey: section.key,
            label: section.label,
            ...(section.repeating ? { repeatingKey: section.repeating.key } : {}),
            itemOids: [],
          };
          itemGroups.set(oid, group);
          groupOids.push(oid);
        }
        for (const item of section.items) {
          const itemDef = itemDefOf(form.key, item);
          if (!group.itemOids.includes(itemDef.oid)) group.itemOids.push(itemDef.oid);
        }
      }
    }
    forms.push({ oid: oids.form(form.key), key: form.key, label: form.label, itemGroupOids: groupOids });
  }

  const codeLists: OdmCodeList[] = definition.codeLists.map((list) => ({
    oid: oids.codeList(list.key),
    key: list.key,
    codes: list.codes,
  }));
  if (usesYesNo.value && !definition.codeLists.some((list) => list.key === YES_NO_CODE_LIST_KEY)) {
    codeLists.push({
      oid: oids.codeList(YES_NO_CODE_LIST_KEY),
      key: YES_NO_CODE_LIST_KEY,
      codes: YES_NO_CODES,
    });
  }

  // An item's place in its group's ItemRefs, by `groupOid|itemOid` (the data follow the definition's order).
  const itemOrder = new Map(
    [...itemGroups.values()].flatMap((group) =>
      group.itemOids.map((itemOid, index) => [`${group.oid}|${itemOid}`, index] as const),
    ),
  );
  const orderOf = (itemGroupOid: string, itemOid: string) =>
    itemOrder.get(`${itemGroupOid}|${itemOid}`) ?? Number.MAX_SAFE_INTEGER;

  // Stored keys per (visit, form): the visit's own layout decides the section of each key.
  const places = new Map<string, Map<string, StoredKeyPlace>>();
  const formsByKey = new Map(definition.forms.map((form) => [form.key, form]));
  const layouts = [
    ...definition.visits,
    // An unscheduled visit's forms have their base sections (no variant names it).
    ...(definition.unscheduledVisit
      ? [{ key: UNSCHEDULED_EVENT_KEY, forms: definition.unscheduledVisit.forms }]
      : []),
  ];
  for (const visit of layouts) {
    for (const formKey of visit.forms) {
      const form = formsByKey.get(formKey);
      if (!form) continue;
      const formPlaces = places.get(`${visit.key}|${formKey}`) ?? new Map<string, StoredKeyPlace>();
      places.set(`${visit.key}|${formKey}`, formPlaces);
      for (const section of sectionsForVisit(form, visit.key)) {
        const itemGroupOid = oids.itemGroup(formKey, section.key);
        if (section.repeating) {
          const columns = new Map(section.items.map((item) => [item.key, itemDefOf(formKey, item)]));
          formPlaces.set(section.repeating.key, {
            kind: 'rows',
            itemGroupOid,
            columns,
            columnOrder: new Map(
              [...columns].map(([columnKey, itemDef]) => [columnKey, orderOf(itemGroupOid, itemDef.oid)]),
            ),
          });
        } else {
          for (const item of section.items) {
            const itemDef = itemDefOf(formKey, item);
            formPlaces.set(item.key, {
              kind: 'item',
              itemGroupOid,
              item: itemDef,
              order: orderOf(itemGroupOid, itemDef.oid),
            });
          }
        }
      }
    }
  }
  const placesOf = (visitKey: string, formKey: string) =>
    places.get(`${odmEventOf(visitKey).eventKey}|${formKey}`);

  return {
    studyOid: oids.study(study.code),
    studyCode: study.code,
    studyLabel: definition.label,
    metaDataVersionOid: oids.metaDataVersion(study.version),
    version: study.version,
    events: [
      ...definition.visits.map((visit) => ({
        oid: oids.event(visit.key),
        key: visit.key,
        label: visit.label,
        common: visit.group === 'all',
        unscheduled: false,
        formOids: visit.forms.map(oids.form),
      })),
      ...(definition.unscheduledVisit
        ? [
            {
              oid: oids.event(UNSCHEDULED_EVENT_KEY),
              key: UNSCHEDULED_EVENT_KEY,
              label: definition.unscheduledVisit.label,
              common: false,
              unscheduled: true,
              formOids: definition.unscheduledVisit.forms.map(oids.form),
            },
          ]
        : []),
    ],
    forms,
    itemGroups: [...itemGroups.values()],
    items: [...items.values()],
    codeLists,
    units: [...units.entries()].map(([symbol, oid]) => ({ oid, symbol })),
    placeOf: (visitKey, formKey, storedKey) => placesOf(visitKey, formKey)?.get(storedKey),
    placesOf,
    itemByOid: items,
    itemOrder,
  };
}
