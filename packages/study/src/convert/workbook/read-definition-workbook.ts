import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import {
  type CheckDefinition,
  type CodeList,
  type FormDefinition,
  type FormVariant,
  findDefinitionProblemTexts,
  ITEM_TYPES,
  type ItemDefinition,
  type ItemType,
  type OutcomeDefinition,
  type ParameterDefinition,
  type SectionDefinition,
  type StudyDefinition,
  studyDefinitionSchema,
  type VisitDefinition,
} from '../../model/study-definition.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { readXlsx, type SheetRow } from './read-xlsx.ts';
import {
  CHECKS_SHEET,
  CODE_LISTS_SHEET,
  DEFINITION_SHEETS,
  FORMS_SHEET,
  ITEMS_SHEET,
  normalizedHeader,
  OUTCOMES_SHEET,
  PARAMETERS_SHEET,
  README_SHEET_NAME,
  ROLES_SHEET,
  STUDY_FIELDS,
  STUDY_SHEET,
  splitList,
  VISITS_SHEET,
} from './workbook-layout.ts';
import { isSheet, openTable, type WorkbookTable } from './workbook-table.ts';

/**
 * A study-definition workbook (docs/workbook-layout.md) read back into a definition, with every problem
 * placed at its sheet, row and column ("Items!F", row 12). A cell that cannot be read (bad JSON, a word
 * that is not TRUE or FALSE) is reported and left out, its row kept; an item of an unknown type is left
 * out. The definition is validated as a whole at the end; its problems are placed where they can be.
 */

export interface WorkbookImportOptions {
  /** Used when the Study sheet gives no key or label. */
  studyKey: string;
  studyLabel: LocalizedText;
  /** The language of columns that name none ("Label" alone), and of a label given in one language only. */
  language: 'ko' | 'en';
}

export interface WorkbookImport {
  /** The definition, or null when an error leaves none that is sound. */
  definition: StudyDefinition | null;
  problems: ImportProblem[];
}

/** Where a part of the definition came from, so that a validation problem names its cell. */
interface Place {
  table: WorkbookTable;
  row: SheetRow;
  field?: string | undefined;
  /** Prefix of the column ids for the rest of the path (`section.` for a section). */
  prefix?: string;
  /** The column when the rest of the path names none. */
  column?: string;
}

/** Drops undefined fields, so that the definition holds only what the workbook gives. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

export function readDefinitionWorkbook(bytes: Uint8Array, options: WorkbookImportOptions): WorkbookImport {
  const problems: ImportProblem[] = [];
  const read = readXlsx(bytes);
  for (const error of read.errors) problems.push({ severity: 'error', message: error });
  // A sheet cut at the row cap, or missing from the file, would give a study with parts left out.
  if (!read.sheets || read.errors.length > 0) return { definition: null, problems };
  const sheets = read.sheets;

  for (const sheet of sheets) {
    const known =
      sheet.name === README_SHEET_NAME || DEFINITION_SHEETS.some((spec) => isSheet(sheet.name, spec));
    if (!known)
      problems.push({
        severity: 'note',
        column: sheet.name,
        message: {
          en: `unknown sheet ${sheet.name}: ignored`,
          ko: `알 수 없는 시트 ${sheet.name}: 무시합니다`,
        },
      });
  }
  const open = (spec: (typeof DEFINITION_SHEETS)[number], required: boolean) =>
    openTable(sheets, spec, required, options.language, problems);
  const studyTable = open(STUDY_SHEET, false);
  const visitsTable = open(VISITS_SHEET, true);
  const formsTable = open(FORMS_SHEET, true);
  const itemsTable = open(ITEMS_SHEET, true);
  const codeListsTable = open(CODE_LISTS_SHEET, false);
  const checksTable = open(CHECKS_SHEET, false);
  const outcomesTable = open(OUTCOMES_SHEET, false);
  const parametersTable = open(PARAMETERS_SHEET, false);
  const rolesTable = open(ROLES_SHEET, false);
  if (!visitsTable || !formsTable || !itemsTable) return { definition: null, problems };

  /** Definition paths (`forms.2.sections.0.items.3`) to the rows they were read from. */
  const places = new Map<string, Place>();
  /** Names used in the definition's own problem texts (`form.item`, `check id`) to their rows. */
  const placesByName = new Map<string, Place>();

  // Study: Field / Value rows.
  const study = new Map<string, { row: SheetRow; table: WorkbookTable }>();
  if (studyTable) {
    for (const row of studyTable.rows) {
      const name = studyTable.text(row, 'field');
      const field = STUDY_FIELDS.find(
        (candidate) =>
          normalizedHeader(candidate.en) === normalizedHeader(name) ||
          normalizedHeader(candidate.ko) === normalizedHeader(name),
      );
      if (!field) {
        studyTable.report('note', row, 'field', undefined, {
          en: `unknown study field "${name}": ignored`,
          ko: `알 수 없는 시험 필드 "${name}": 무시합니다`,
        });
        continue;
      }
      if (studyTable.raw(row, 'value') === undefined) continue;
      if (study.has(field.id)) {
        studyTable.report('warning', row, 'field', undefined, {
          en: `study field "${name}" is given twice: the first is read`,
          ko: `시험 필드 "${name}"가 두 번 나옵니다: 첫 번째를 읽습니다`,
        });
        continue;
      }
      study.set(field.id, { row, table: studyTable });
      // `label.ko` is placed, and `label` too (a problem of the whole label lands on its first row).
      const place: Place = { table: studyTable, row, column: 'value' };
      const [group = field.id] = field.id.split('.');
      places.set(field.id, place);
      if (!places.has(group)) places.set(group, place);
    }
  }
  const studyText = (id: string) => {
    const entry = study.get(id);
    return entry ? entry.table.text(entry.row, 'value') : '';
  };
  const studyExpression = (id: string): Expression | undefined => {
    const entry = study.get(id);
    return entry ? entry.table.expression(entry.row, 'value', id) : undefined;
  };
  const studyKey = studyText('key').trim() || options.studyKey;
  const labelKo = studyText('label.ko');
  const labelEn = studyText('label.en');
  const studyLabel =
    labelKo === '' && labelEn === ''
      ? options.studyLabel
      : { ko: labelKo || labelEn, en: labelEn || labelKo };
  let version = studyText('version').trim();
  if (version === '') {
    version = '1.0.0';
    problems.push({
      severity: 'note',
      column: STUDY_SHEET.name,
      message: { en: 'no study version given: 1.0.0', ko: '시험 버전이 없어 1.0.0으로 둡니다' },
    });
  }
  const visitDateForm = studyText('visitDate.form').trim();
  const visitDateItem = studyText('visitDate.item').trim();
  const statusRules = compact({
    complete: studyExpression('subjectStatus.complete'),
    dropout: studyExpression('subjectStatus.dropout'),
    screeningFailure: studyExpression('subjectStatus.screeningFailure'),
    ongoing: studyExpression('subjectStatus.ongoing'),
  });

  // Visits, in order; the row marked Unscheduled is the unscheduled visit.
  const visits: VisitDefinition[] = [];
  let unscheduledVisit: StudyDefinition['unscheduledVisit'];
  for (const row of visitsTable.rows) {
    const key = visitsTable.key(row, 'key');
    const field = key || undefined;
    const label = visitsTable.localized(row, 'label') as LocalizedText;
    const forms = visitsTable.list(row, 'forms') ?? [];
    if (visitsTable.boolean(row, 'unscheduled', field)) {
      if (unscheduledVisit) {
        visitsTable.report('error', row, 'unscheduled', field, {
          en: 'a second unscheduled visit: only the first is read',
          ko: '비정기 방문이 두 번 나옵니다: 첫 번째만 읽습니다',
        });
        continue;
      }
      unscheduledVisit = { label, forms };
      places.set('unscheduledVisit', { table: visitsTable, row });
      continue;
    }
    const windowCells = ['window.anchorVisit', 'window.offsetDays', 'window.minusDays', 'window.plusDays'];
    const window = windowCells.some((id) => visitsTable.raw(row, id) !== undefined)
      ? {
          anchorVisit: visitsTable.key(row, 'window.anchorVisit'),
          offsetDays: visitsTable.number(row, 'window.offsetDays', field) as number,
          minusDays: visitsTable.number(row, 'window.minusDays', field) as number,
          plusDays: visitsTable.number(row, 'window.plusDays', field) as number,
        }
      : undefined;
    places.set(`visits.${visits.length}`, { table: visitsTable, row, field });
    visits.push(
      compact({
        key,
        label,
        group: visitsTable.key(row, 'group') as VisitDefinition['group'],
        window,
        forms,
      }),
    );
  }

  // Forms, in order; their sections come from the Items sheet.
  const forms: FormDefinition[] = [];
  const formIndex = new Map<string, number>();
  for (const row of formsTable.rows) {
    const key = formsTable.key(row, 'key');
    places.set(`forms.${forms.length}`, { table: formsTable, row, field: key || undefined });
    if (!formIndex.has(key)) formIndex.set(key, forms.length);
    forms.push({ key, label: formsTable.localized(row, 'label') as LocalizedText, sections: [] });
  }
  const formOf = (
    table: WorkbookTable,
    row: SheetRow,
  ): { form: FormDefinition; index: number } | undefined => {
    const key = table.key(row, 'form');
    const index = formIndex.get(key);
    if (index === undefined) {
      table.report('error', row, 'form', undefined, {
        en: `unknown form "${key}" (not in the Forms sheet): the row is left out`,
        ko: `알 수 없는 양식 "${key}"(Forms 시트에 없음): 이 행은 빼고 가져옵니다`,
      });
      return undefined;
    }
    return { form: forms[index] as FormDefinition, index };
  };

  // Items: consecutive rows of one form, variant and section make a section.
  readItems(itemsTable, formOf, places, placesByName);
  const itemCount = forms.reduce(
    (count, form) =>
      count +
      [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)]
        .flat()
        .reduce((sum, section) => sum + section.items.length, 0),
    0,
  );
  if (itemCount === 0) {
    problems.push({
      severity: 'error',
      column: itemsTable.sheetName,
      message: {
        en: 'the workbook holds no items: fill in the Items sheet (one row per item)',
        ko: '통합 문서에 항목이 없습니다: Items 시트에 항목을 한 행에 하나씩 적어 주세요',
      },
    });
    return { definition: null, problems };
  }

  // Code lists: one row per code, the list's codes in order.
  const codeLists: CodeList[] = [];
  if (codeListsTable) {
    for (const row of codeListsTable.rows) {
      const key = codeListsTable.key(row, 'key');
      let listIndex = codeLists.findIndex((list) => list.key === key);
      if (listIndex < 0) {
        listIndex = codeLists.length;
        places.set(`codeLists.${listIndex}`, { table: codeListsTable, row, field: key });
        codeLists.push({ key, codes: [] });
      }
      const list = codeLists[listIndex] as CodeList;
      places.set(`codeLists.${listIndex}.codes.${list.codes.length}`, {
        table: codeListsTable,
        row,
        field: key,
      });
      list.codes.push({
        code: codeListsTable.key(row, 'code'),
        label: codeListsTable.localized(row, 'label') as LocalizedText,
      });
    }
  }

  // Checks and outcomes: one row each, attached to their form.
  if (checksTable) {
    for (const row of checksTable.rows) {
      const target = formOf(checksTable, row);
      if (!target) continue;
      const id = checksTable.key(row, 'id');
      const checks = target.form.checks ?? [];
      target.form.checks = checks;
      const place: Place = { table: checksTable, row, field: id, column: 'id' };
      places.set(`forms.${target.index}.checks.${checks.length}`, place);
      placesByName.set(`check ${id}`, place);
      checks.push(
        compact({
          id,
          item: checksTable.key(row, 'item'),
          when: checksTable.expression(row, 'when', id) as Expression,
          severity: checksTable.key(row, 'severity') as CheckDefinition['severity'],
          message: checksTable.localized(row, 'message') as LocalizedText,
          visits: checksTable.list(row, 'visits'),
        }),
      );
    }
  }
  if (outcomesTable) {
    for (const row of outcomesTable.rows) {
      const target = formOf(outcomesTable, row);
      if (!target) continue;
      const id = outcomesTable.key(row, 'id');
      const outcomes = target.form.outcomes ?? [];
      target.form.outcomes = outcomes;
      const place: Place = { table: outcomesTable, row, field: id, column: 'id' };
      places.set(`forms.${target.index}.outcomes.${outcomes.length}`, place);
      placesByName.set(`outcome ${id}`, place);
      const targetVisit = outcomesTable.optionalKey(row, 'target.visit');
      const targetForm = outcomesTable.optionalKey(row, 'target.form');
      outcomes.push(
        compact({
          id,
          kind: outcomesTable.key(row, 'kind') as OutcomeDefinition['kind'],
          when: outcomesTable.expression(row, 'when', id) as Expression,
          target:
            targetVisit === undefined && targetForm === undefined
              ? undefined
              : { visit: targetVisit ?? '', form: targetForm ?? '' },
          message: outcomesTable.localized(row, 'message') as LocalizedText,
          visits: outcomesTable.list(row, 'visits'),
        }),
      );
    }
  }

  // Parameters: a number cell is a number, text is text.
  const parameters: Record<string, ParameterDefinition> = {};
  if (parametersTable) {
    for (const row of parametersTable.rows) {
      const key = parametersTable.key(row, 'key');
      const raw = parametersTable.raw(row, 'value');
      places.set(`parameters.${key}`, { table: parametersTable, row, field: key });
      if (parameters[key])
        parametersTable.report('error', row, 'key', key, {
          en: `parameter ${key} is given twice: the first is read`,
          ko: `매개변수 ${key}가 두 번 나옵니다: 첫 번째를 읽습니다`,
        });
      else
        parameters[key] = {
          value: typeof raw === 'number' ? raw : parametersTable.text(row, 'value'),
          label: parametersTable.localized(row, 'label') as LocalizedText,
        };
    }
  }

  // Roles: Role / Field / Value rows; a dotted field is nested, `items` is a list.
  const roles: Record<string, Record<string, unknown>> = {};
  if (rolesTable) {
    for (const row of rolesTable.rows) {
      const role = rolesTable.key(row, 'role');
      const path = rolesTable.key(row, 'field').split('.');
      const value = rolesTable.key(row, 'value');
      if (!roles[role]) {
        roles[role] = {};
        places.set(`roles.${role}`, { table: rolesTable, row, column: 'role' });
      }
      places.set(`roles.${role}.${path.join('.')}`, { table: rolesTable, row, column: 'value' });
      let target = roles[role];
      for (const segment of path.slice(0, -1)) {
        target[segment] ??= {};
        target = target[segment] as Record<string, unknown>;
      }
      const last = path[path.length - 1] as string;
      target[last] = last === 'items' ? splitList(value) : value;
    }
  }

  const definition = compact({
    key: studyKey,
    version,
    label: studyLabel,
    visitDate:
      visitDateForm === '' && visitDateItem === '' ? undefined : { form: visitDateForm, item: visitDateItem },
    parameters: Object.keys(parameters).length > 0 ? parameters : undefined,
    codeLists,
    visits,
    unscheduledVisit,
    forms,
    subjectStatus: Object.keys(statusRules).length > 0 ? statusRules : undefined,
    roles: Object.keys(roles).length > 0 ? roles : undefined,
  });
  return validated(definition, places, placesByName, problems);
}

/** The type of an item row, or undefined (reported) when it names none CDMS has. */
function itemType(table: WorkbookTable, row: SheetRow, field: string): ItemType | undefined {
  const text = table.key(row, 'type');
  const type = ITEM_TYPES.find((candidate) => candidate.toLowerCase() === text.toLowerCase());
  if (type) return type;
  table.report('error', row, 'type', field, {
    en: `unknown item type "${text}" (one of ${ITEM_TYPES.join(', ')}): the item is left out`,
    ko: `알 수 없는 항목 유형 "${text}"(${ITEM_TYPES.join(', ')} 중 하나): 이 항목은 빼고 가져옵니다`,
  });
  return undefined;
}

const SECTION_COLUMNS = [
  'section.label.ko',
  'section.label.en',
  'section.help.ko',
  'section.help.en',
  'section.showWhen',
  'section.notDoneItem',
  'section.repeating.key',
  'section.repeating.rowsRequired',
  'section.repeating.maxRows',
];

function sectionOf(table: WorkbookTable, row: SheetRow, key: string): SectionDefinition {
  const repeatingKey = table.optionalKey(row, 'section.repeating.key');
  return compact({
    key,
    label: table.localized(row, 'section.label') as LocalizedText,
    help: table.localized(row, 'section.help'),
    notDoneItem: table.optionalKey(row, 'section.notDoneItem'),
    showWhen: table.expression(row, 'section.showWhen', key),
    repeating:
      repeatingKey === undefined
        ? undefined
        : compact({
            key: repeatingKey,
            rowsRequired: table.boolean(row, 'section.repeating.rowsRequired', key),
            maxRows: table.number(row, 'section.repeating.maxRows', key),
          }),
    items: [],
  });
}

function itemOf(table: WorkbookTable, row: SheetRow, key: string, type: ItemType): ItemDefinition {
  return compact({
    key,
    type,
    label: table.localized(row, 'label') as LocalizedText,
    help: table.localized(row, 'help'),
    unit: table.optionalKey(row, 'unit'),
    decimals: table.number(row, 'decimals', key),
    min: table.number(row, 'min', key),
    max: table.number(row, 'max', key),
    rangeSeverity: table.optionalKey(row, 'rangeSeverity') as ItemDefinition['rangeSeverity'],
    hardMin: table.number(row, 'hardMin', key),
    hardMax: table.number(row, 'hardMax', key),
    maxLength: table.number(row, 'maxLength', key),
    // A pattern is taken as typed: its spaces may matter.
    pattern: table.text(row, 'pattern') === '' ? undefined : table.text(row, 'pattern'),
    required: table.boolean(row, 'required', key),
    requiredWhen: table.expression(row, 'requiredWhen', key),
    showWhen: table.expression(row, 'showWhen', key),
    readOnly: table.boolean(row, 'readOnly', key),
    derive: table.expression(row, 'derive', key),
    codeList: table.optionalKey(row, 'codeList'),
    display: table.optionalKey(row, 'display') as ItemDefinition['display'],
    notFuture: table.boolean(row, 'notFuture', key),
    critical: table.flag(row, 'critical', key),
    personalData: table.flag(row, 'personalData', key),
  });
}

function readItems(
  table: WorkbookTable,
  formOf: (table: WorkbookTable, row: SheetRow) => { form: FormDefinition; index: number } | undefined,
  places: Map<string, Place>,
  placesByName: Map<string, Place>,
): void {
  let current:
    | { signature: string; section: SectionDefinition; path: string; firstRow: SheetRow; cells: string[] }
    | undefined;
  for (const row of table.rows) {
    const target = formOf(table, row);
    if (!target) continue;
    const { form, index } = target;
    const variantVisits = table.list(row, 'variant');
    const sectionKey = table.key(row, 'section.key');
    const signature = `${form.key}|${(variantVisits ?? []).join(',')}|${sectionKey}`;
    if (current?.signature !== signature) {
      // A new section, in the form's default layout or in the variant for these visits.
      let sections = form.sections;
      let path = `forms.${index}.sections`;
      if (variantVisits) {
        const variants: FormVariant[] = form.variants ?? [];
        form.variants = variants;
        let variantIndex = variants.findIndex(
          (variant) => variant.visits.join(',') === variantVisits.join(','),
        );
        if (variantIndex < 0) {
          variantIndex = variants.length;
          variants.push({ visits: variantVisits, sections: [] });
          places.set(`forms.${index}.variants.${variantIndex}`, { table, row, column: 'variant' });
        }
        sections = (variants[variantIndex] as FormVariant).sections;
        path = `forms.${index}.variants.${variantIndex}.sections`;
      }
      const section = sectionOf(table, row, sectionKey);
      path = `${path}.${sections.length}`;
      places.set(path, { table, row, field: sectionKey, prefix: 'section.' });
      sections.push(section);
      const cells = SECTION_COLUMNS.map((id) => table.text(row, id));
      current = { signature, section, path, firstRow: row, cells };
    } else {
      // The section's details are read from its first row; a later row that says otherwise is flagged.
      const differing = SECTION_COLUMNS.find((id, position) => {
        const text = table.text(row, id);
        return text !== '' && text !== current?.cells[position];
      });
      if (differing)
        table.report('warning', row, differing, sectionKey, {
          en: `differs from the section's first row (row ${current.firstRow.line}), whose value is used`,
          ko: `섹션의 첫 행(${current.firstRow.line}행)과 다릅니다: 첫 행의 값을 씁니다`,
        });
    }
    const key = table.key(row, 'key');
    if (key === '') {
      // A row without an item declares the section alone (a section may have no items).
      if (table.key(row, 'type') !== '')
        table.report('error', row, 'key', undefined, {
          en: 'the item has no key: the row is left out',
          ko: '항목 키가 없습니다: 이 행은 빼고 가져옵니다',
        });
      continue;
    }
    const type = itemType(table, row, key);
    if (!type) continue;
    const place: Place = { table, row, field: key, column: 'key' };
    places.set(`${current.path}.items.${current.section.items.length}`, place);
    if (!placesByName.has(`${form.key}.${key}`)) placesByName.set(`${form.key}.${key}`, place);
    current.section.items.push(itemOf(table, row, key, type));
  }
}

/** The place of a validation problem: the deepest part of its path that came from a row. */
function placeOfPath(
  path: PropertyKey[],
  places: Map<string, Place>,
): { place: Place; rest: string[] } | undefined {
  const parts = path.map(String);
  for (let length = parts.length; length > 0; length -= 1) {
    const place = places.get(parts.slice(0, length).join('.'));
    if (place) return { place, rest: parts.slice(length) };
  }
  return undefined;
}

function report(
  problems: ImportProblem[],
  place: Place | undefined,
  rest: string[],
  message: LocalizedText,
): void {
  if (!place) {
    problems.push({ severity: 'error', message });
    return;
  }
  const prefix = place.prefix ?? '';
  const candidates = [rest.join('.'), rest[0] ?? '', `${rest[0] ?? ''}.ko`]
    .filter((candidate) => candidate !== '')
    .map((candidate) => `${prefix}${candidate}`);
  const column = candidates.find((candidate) => place.table.has(candidate)) ?? place.column;
  place.table.report('error', place.row, column, place.field, message);
}

function validated(
  definition: object,
  places: Map<string, Place>,
  placesByName: Map<string, Place>,
  problems: ImportProblem[],
): WorkbookImport {
  const parsed = studyDefinitionSchema.safeParse(definition);
  if (parsed.success) return { definition: parsed.data, problems };
  const seen = new Set<string>();
  const add = (place: Place | undefined, rest: string[], message: LocalizedText) => {
    const id = `${place?.row.line}|${message.en}`;
    if (seen.has(id)) return;
    seen.add(id);
    report(problems, place, rest, message);
  };
  for (const issue of parsed.error.issues) {
    const ko = (issue as { params?: { ko?: unknown } }).params?.ko;
    if (issue.code === 'custom' && typeof ko === 'string') continue;
    const located = placeOfPath(issue.path, places);
    const where = located ? located.rest.join('.') : issue.path.join('.');
    const text = where === '' ? issue.message : `${where}: ${issue.message}`;
    add(located?.place, located?.rest ?? [], { en: text, ko: text });
  }
  // The cross-reference problems, each placed by the name it starts with (`form.item:`, `check id:`).
  let crossReference: ReturnType<typeof findDefinitionProblemTexts> = [];
  try {
    crossReference = findDefinitionProblemTexts(definition as StudyDefinition);
  } catch {
    // A definition whose shape is already wrong cannot be cross-checked; its shape problems are reported.
  }
  for (const problem of crossReference) {
    const name = problem.en.split(':')[0] ?? '';
    add(placesByName.get(name), [], problem);
  }
  return { definition: null, problems };
}
