import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import type { SectionDefinition, StudyDefinition } from '../../model/study-definition.ts';
import {
  CHECKS_SHEET,
  CODE_LISTS_SHEET,
  DEFINITION_SHEETS,
  FORMS_SHEET,
  ITEMS_SHEET,
  OUTCOMES_SHEET,
  PARAMETERS_SHEET,
  README_LINES,
  README_SHEET_NAME,
  ROLES_SHEET,
  type SheetSpec,
  STUDY_FIELDS,
  STUDY_SHEET,
  VISITS_SHEET,
} from './workbook-layout.ts';
import { type CellValue, type SheetToWrite, writeXlsx } from './xlsx-package.ts';

/**
 * A study definition as an XLSX workbook (docs/workbook-layout.md): one sheet each for the study, the
 * visits, forms, items, code lists, checks, outcomes, parameters and roles. Every field of the model has
 * a column, expressions are compact JSON, so `readDefinitionWorkbook` gives back the same definition.
 */

/** One row: cell values by column id. */
type Row = Record<string, CellValue | undefined>;

function json(expression: Expression | undefined): string | undefined {
  return expression === undefined ? undefined : JSON.stringify(expression);
}

function labelCells(prefix: string, text: LocalizedText | undefined): Row {
  return { [`${prefix}.ko`]: text?.ko, [`${prefix}.en`]: text?.en };
}

function list(keys: string[] | undefined): string | undefined {
  return keys === undefined ? undefined : keys.join(', ');
}

export function sheetOf(spec: SheetSpec, rows: Row[]): SheetToWrite {
  return {
    name: spec.name,
    header: spec.columns.map((column) => column.en),
    rows: rows.map((row) => spec.columns.map((column) => row[column.id])),
    widths: spec.columns.map((column) => column.width ?? 14),
  };
}

export function readmeSheet(): SheetToWrite {
  return { name: README_SHEET_NAME, header: null, rows: README_LINES.map((line) => [line]), widths: [140] };
}

function studyRows(definition: StudyDefinition): Row[] {
  const values: Row = {
    key: definition.key,
    version: definition.version,
    ...labelCells('label', definition.label),
    'visitDate.form': definition.visitDate?.form,
    'visitDate.item': definition.visitDate?.item,
    'subjectStatus.complete': json(definition.subjectStatus?.complete),
    'subjectStatus.dropout': json(definition.subjectStatus?.dropout),
    'subjectStatus.screeningFailure': json(definition.subjectStatus?.screeningFailure),
    'subjectStatus.ongoing': json(definition.subjectStatus?.ongoing),
  };
  return STUDY_FIELDS.filter((field) => values[field.id] !== undefined).map((field) => ({
    field: field.en,
    value: values[field.id],
  }));
}

function visitRows(definition: StudyDefinition): Row[] {
  const rows: Row[] = definition.visits.map((visit) => ({
    key: visit.key,
    ...labelCells('label', visit.label),
    group: visit.group,
    'window.anchorVisit': visit.window?.anchorVisit,
    'window.offsetDays': visit.window?.offsetDays,
    'window.minusDays': visit.window?.minusDays,
    'window.plusDays': visit.window?.plusDays,
    forms: list(visit.forms),
  }));
  if (definition.unscheduledVisit) {
    rows.push({
      ...labelCells('label', definition.unscheduledVisit.label),
      forms: list(definition.unscheduledVisit.forms),
      unscheduled: true,
    });
  }
  return rows;
}

function formRows(definition: StudyDefinition): Row[] {
  return definition.forms.map((form) => ({
    key: form.key,
    ...labelCells('label', form.label),
    visits: list(
      definition.visits.filter((visit) => visit.forms.includes(form.key)).map((visit) => visit.key),
    ),
    variants: form.variants?.map((variant) => variant.visits.join(', ')).join(' | '),
  }));
}

function sectionCells(section: SectionDefinition): Row {
  return {
    'section.key': section.key,
    ...labelCells('section.label', section.label),
    ...labelCells('section.help', section.help),
    'section.showWhen': json(section.showWhen),
    'section.notDoneItem': section.notDoneItem,
    'section.repeating.key': section.repeating?.key,
    'section.repeating.rowsRequired': section.repeating?.rowsRequired,
    'section.repeating.maxRows': section.repeating?.maxRows,
  };
}

function itemRows(definition: StudyDefinition): Row[] {
  const rows: Row[] = [];
  for (const form of definition.forms) {
    const layouts = [
      { variant: undefined as string | undefined, sections: form.sections },
      ...(form.variants ?? []).map((variant) => ({
        variant: variant.visits.join(', '),
        sections: variant.sections,
      })),
    ];
    for (const layout of layouts) {
      for (const section of layout.sections) {
        const sectionRow: Row = { form: form.key, variant: layout.variant, ...sectionCells(section) };
        // A section without items still needs its row, or it would be lost.
        if (section.items.length === 0) rows.push(sectionRow);
        for (const item of section.items) {
          rows.push({
            ...sectionRow,
            key: item.key,
            type: item.type,
            ...labelCells('label', item.label),
            ...labelCells('help', item.help),
            unit: item.unit,
            decimals: item.decimals,
            min: item.min,
            max: item.max,
            rangeSeverity: item.rangeSeverity,
            hardMin: item.hardMin,
            hardMax: item.hardMax,
            maxLength: item.maxLength,
            pattern: item.pattern,
            codeList: item.codeList,
            display: item.display,
            required: item.required,
            requiredWhen: json(item.requiredWhen),
            showWhen: json(item.showWhen),
            readOnly: item.readOnly,
            derive: json(item.derive),
            notFuture: item.notFuture,
            critical: item.critical,
            personalData: item.personalData,
          });
        }
      }
    }
  }
  return rows;
}

function codeListRows(definition: StudyDefinition): Row[] {
  return definition.codeLists.flatMap((codeList) =>
    codeList.codes.map((code) => ({
      key: codeList.key,
      code: code.code,
      ...labelCells('label', code.label),
    })),
  );
}

function checkRows(definition: StudyDefinition): Row[] {
  return definition.forms.flatMap((form) =>
    (form.checks ?? []).map((check) => ({
      form: form.key,
      id: check.id,
      item: check.item,
      severity: check.severity,
      when: json(check.when),
      ...labelCells('message', check.message),
      visits: list(check.visits),
    })),
  );
}

function outcomeRows(definition: StudyDefinition): Row[] {
  return definition.forms.flatMap((form) =>
    (form.outcomes ?? []).map((outcome) => ({
      form: form.key,
      id: outcome.id,
      kind: outcome.kind,
      when: json(outcome.when),
      'target.visit': outcome.target?.visit,
      'target.form': outcome.target?.form,
      ...labelCells('message', outcome.message),
      visits: list(outcome.visits),
    })),
  );
}

function parameterRows(definition: StudyDefinition): Row[] {
  // A number is written as a number cell and text as a text cell: the cell's kind says which it is.
  return Object.entries(definition.parameters ?? {}).map(([key, parameter]) => ({
    key,
    value: parameter.value,
    ...labelCells('label', parameter.label),
  }));
}

/** One row per field of each role; a nested field is dotted (treatedEar.item), a list is comma-separated. */
function roleRows(definition: StudyDefinition): Row[] {
  const rows: Row[] = [];
  const addFields = (role: string, prefix: string, fields: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) rows.push({ role, field: `${prefix}${field}`, value: value.join(', ') });
      else if (typeof value === 'object' && value !== null)
        addFields(role, `${prefix}${field}.`, value as Record<string, unknown>);
      else rows.push({ role, field: `${prefix}${field}`, value: String(value) });
    }
  };
  for (const [role, fields] of Object.entries(definition.roles ?? {})) {
    if (fields) addFields(role, '', fields as Record<string, unknown>);
  }
  return rows;
}

export function writeDefinitionWorkbook(definition: StudyDefinition): Uint8Array {
  const rowsBySheet = new Map<SheetSpec, Row[]>([
    [STUDY_SHEET, studyRows(definition)],
    [VISITS_SHEET, visitRows(definition)],
    [FORMS_SHEET, formRows(definition)],
    [ITEMS_SHEET, itemRows(definition)],
    [CODE_LISTS_SHEET, codeListRows(definition)],
    [CHECKS_SHEET, checkRows(definition)],
    [OUTCOMES_SHEET, outcomeRows(definition)],
    [PARAMETERS_SHEET, parameterRows(definition)],
    [ROLES_SHEET, roleRows(definition)],
  ]);
  return writeXlsx([
    readmeSheet(),
    ...DEFINITION_SHEETS.map((spec) => sheetOf(spec, rowsBySheet.get(spec) ?? [])),
  ]);
}
