import {
  type Code,
  type ItemDefinition,
  type LocalizedText,
  type StudyDefinition,
  YES_NO_CODES,
} from '@cdms/study';

/**
 * The tables a study definition gives, one per form and one more per repeating group of a form:
 *
 * - `vitalSigns`: the form's plain items, one row per subject × visit;
 * - `adverseEvent__events`: a repeating group's columns, one row per subject × visit × row of the group.
 *
 * A form that mixes plain items and a repeating group (the AE form: "any adverse event?" and the
 * list of events) so gives two tidy tables instead of plain values copied onto every group row: each
 * value appears once, and two repeating groups of one form never multiply each other's rows. The
 * tables of one form share the subject, site and visit columns they join on. A form's sections are
 * the union over its default layout and its visit variants, in the order they first appear.
 */

export interface TableColumn {
  item: ItemDefinition;
  /** The codes of a coded item (single or multiple choice, yes/no); undefined for the others. */
  codes: Code[] | undefined;
  /**
   * A personal-data item (the definition's `personalData`) of an export that masks them: the
   * column stays, its cells are blank, and its values are never read.
   */
  masked: boolean;
}

export interface FormTable {
  /** File and sheet name: the form key, or `form__group` for a repeating group. */
  name: string;
  formKey: string;
  formLabel: LocalizedText;
  /** The key the group's rows are stored under (an array of row objects); null for plain items. */
  groupKey: string | null;
  columns: TableColumn[];
}

/** The columns every table starts with, before its items. */
export const KEY_COLUMNS = ['subject', 'site', 'visit', 'repeat'] as const;

/** The extra column of a coded item when labels are asked for. */
export const labelColumnOf = (itemKey: string) => `${itemKey}_label`;

export function codesOf(definition: StudyDefinition, item: ItemDefinition): Code[] | undefined {
  if (item.type === 'yesNo') return YES_NO_CODES;
  if (item.codeList === undefined) return undefined;
  return definition.codeLists.find((list) => list.key === item.codeList)?.codes;
}

/**
 * The tables of the definition's forms (all forms when `formKeys` is absent), in definition order;
 * with `maskPersonalData`, the columns of the items the definition flags as personal are masked.
 */
export function formTablesOf(
  definition: StudyDefinition,
  formKeys?: readonly string[],
  maskPersonalData = false,
): FormTable[] {
  const tables: FormTable[] = [];
  for (const form of definition.forms) {
    if (formKeys && !formKeys.includes(form.key)) continue;
    const plain: TableColumn[] = [];
    const groups = new Map<string, TableColumn[]>();
    const seen = new Set<string>();
    const layouts = [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)];
    for (const sections of layouts) {
      for (const section of sections) {
        let target = plain;
        if (section.repeating) {
          target = groups.get(section.repeating.key) ?? [];
          groups.set(section.repeating.key, target);
        }
        const scope = section.repeating ? `${section.repeating.key}.` : '';
        for (const item of section.items) {
          if (seen.has(scope + item.key)) continue;
          seen.add(scope + item.key);
          target.push({
            item,
            codes: codesOf(definition, item),
            masked: maskPersonalData && item.personalData === true,
          });
        }
      }
    }
    const base = { formKey: form.key, formLabel: form.label };
    if (plain.length > 0) tables.push({ ...base, name: form.key, groupKey: null, columns: plain });
    for (const [groupKey, columns] of groups)
      tables.push({ ...base, name: `${form.key}__${groupKey}`, groupKey, columns });
  }
  return tables;
}

/** A table's header: the key columns, then each item's key (and `<item>_label` after a coded one). */
export function headerOf(table: FormTable, withLabels: boolean): string[] {
  return [
    ...KEY_COLUMNS,
    ...table.columns.flatMap((column) =>
      withLabels && column.codes ? [column.item.key, labelColumnOf(column.item.key)] : [column.item.key],
    ),
  ];
}

/**
 * The stored item keys a table reads: its plain items that are not masked, or its group's one key
 * (a group's masked columns are blanked cell by cell: table-cells.ts).
 */
export function storedKeysOf(table: FormTable): string[] {
  return table.groupKey === null
    ? table.columns.filter((column) => !column.masked).map((column) => column.item.key)
    : [table.groupKey];
}
