import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import type {
  CodeList,
  FormDefinition,
  ItemDefinition,
  ItemType,
  SectionDefinition,
  StudyDefinition,
  VisitDefinition,
} from '../../model/study-definition.ts';
import { validateImportedDefinition } from '../validate-imported-definition.ts';
import {
  type DictionaryRow,
  type ImportProblem,
  parseChoices,
  plainText,
  readDictionaryRows,
  readEventMapping,
  readTag,
} from './redcap-dictionary.ts';
import { type LogicField, translateRedcapLogic } from './redcap-logic.ts';
import { keyFromRedcapName, labelFromRedcapName, visitKeyFromEventName } from './redcap-names.ts';

/**
 * A REDCap data dictionary (and, when given, its instrument–event mapping) read into a study
 * definition, with a report of every problem by line and column. Nothing is dropped in silence:
 * a field whose logic cannot be translated is kept without it, and the report says so; only a
 * field type CDMS cannot hold (`sql`) is left out, with an error row.
 */

export interface RedcapImportOptions {
  /** The new study's key and label (a dictionary carries neither). */
  studyKey: string;
  studyLabel: LocalizedText;
  /** The language the dictionary's labels are written in; the other language gets the same text until translated. */
  language: 'ko' | 'en';
  /** REDCap's instrument–event mapping CSV: the schedule. Without it the study has one visit holding every form. */
  eventMapping?: string | undefined;
}

export interface RedcapImport {
  /** The definition, or null when an error leaves none that is sound. */
  definition: StudyDefinition | null;
  problems: ImportProblem[];
}

/** How each REDCap text validation is held: the item type and what narrows it. */
interface TextValidation {
  type: ItemType;
  decimals?: number;
  pattern?: string;
  note?: LocalizedText;
}

export const PATTERNS: Record<string, string> = {
  email: '[^@\\s]+@[^@\\s]+\\.[^@\\s]+',
  phone: '\\(?[0-9]{3}\\)?[ .-]?[0-9]{3}[ .-]?[0-9]{4}',
  zipcode: '[0-9]{5}(-[0-9]{4})?',
  alpha_only: '[A-Za-z]+',
  postalcode_canada: '[A-Za-z][0-9][A-Za-z] ?[0-9][A-Za-z][0-9]',
  postalcode_australia: '[0-9]{4}',
  postalcode_french: '[0-9]{5}',
  postalcode_germany: '[0-9]{5}',
  ssn: '[0-9]{3}-[0-9]{2}-[0-9]{4}',
  mrn_10d: '[0-9]{10}',
  mrn_generic: '[A-Za-z0-9-]+',
  vmrn: '[0-9]{1,10}',
  time_mm_ss: '[0-5][0-9]:[0-5][0-9]',
  time_hh_mm_ss: '([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]',
  datetime: '[0-9]{4}-[0-9]{2}-[0-9]{2} ([01][0-9]|2[0-3]):[0-5][0-9]',
  datetime_seconds: '[0-9]{4}-[0-9]{2}-[0-9]{2} ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]',
};

function textValidation(validation: string): TextValidation | undefined {
  const name = validation.toLowerCase();
  if (name === '') return { type: 'text' };
  if (/^date_(ymd|mdy|dmy)$/.test(name)) return { type: 'date' };
  if (name === 'time') return { type: 'time' };
  if (name === 'integer') return { type: 'integer' };
  if (name === 'number') return { type: 'decimal' };
  const decimals = /^number_(\d)dp(_comma_decimal)?$/.exec(name);
  if (decimals) return { type: 'decimal', decimals: Number(decimals[1]) };
  if (name === 'number_comma_decimal') return { type: 'decimal' };
  const datetime = /^datetime_(seconds_)?(ymd|mdy|dmy)$/.exec(name);
  if (datetime) {
    return {
      type: 'text',
      pattern: PATTERNS[datetime[1] ? 'datetime_seconds' : 'datetime'] as string,
      note: {
        en: 'a date and time: held as text YYYY-MM-DD HH:MM (CDMS has dates and times as separate items)',
        ko: '날짜와 시각: YYYY-MM-DD HH:MM 형식의 텍스트로 둡니다(CDMS는 날짜와 시각을 따로 둡니다)',
      },
    };
  }
  const pattern = PATTERNS[name];
  if (pattern) return { type: 'text', pattern };
  return undefined;
}

/** A field's item before its logic (which may name fields further down) is read. */
interface PendingField {
  row: DictionaryRow;
  formKey: string;
  item: ItemDefinition;
  yesNo: boolean;
}

function localized(text: string, fallback: string): LocalizedText {
  const plain = plainText(text) || fallback;
  return { ko: plain, en: plain };
}

function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export function readRedcapDictionary(csv: string, options: RedcapImportOptions): RedcapImport {
  const { rows, problems } = readDictionaryRows(csv);
  if (problems.some((problem) => problem.severity === 'error') || rows.length === 0) {
    if (rows.length === 0 && !problems.some((problem) => problem.severity === 'error'))
      problems.push({
        severity: 'error',
        message: { en: 'the dictionary has no fields', ko: '데이터 사전에 필드가 없습니다' },
      });
    return { definition: null, problems };
  }
  const report = (
    row: DictionaryRow,
    severity: ImportProblem['severity'],
    column: string,
    message: LocalizedText,
  ) => problems.push({ severity, line: row.line, column, field: row.variable, message });

  // REDCap's first field is the record's identifier; CDMS numbers subjects itself.
  const [identifier, ...fieldRows] = rows;
  if (identifier)
    report(identifier, 'note', 'Variable / Field Name', {
      en: `${identifier.variable} is REDCap's record ID: CDMS numbers its subjects itself, so it is not an item`,
      ko: `REDCap의 레코드 ID 필드(${identifier.variable}): CDMS는 대상자 번호를 직접 매기므로 항목으로 두지 않습니다`,
    });

  const codeLists: CodeList[] = [];
  const forms: FormDefinition[] = [];
  const formNames = new Map<string, string>();
  const fields = new Map<string, PendingField>();
  const sectionOf = new Map<PendingField, SectionDefinition>();
  let currentForm: FormDefinition | undefined;
  let currentSection: SectionDefinition | undefined;
  let currentMatrix = '';

  const startSection = (form: FormDefinition, row: DictionaryRow, header: string) => {
    const key = readTag(row.annotation, 'SECTION') ?? `section${form.sections.length + 1}`;
    const section: SectionDefinition = {
      key,
      label: header ? localized(header, key) : form.label,
      items: [],
    };
    form.sections.push(section);
    currentSection = section;
  };

  for (const row of fieldRows) {
    const formKey = keyFromRedcapName(row.form);
    if (row.form === '') {
      report(row, 'error', 'Form Name', { en: 'the field has no form', ko: '필드에 양식 이름이 없습니다' });
      continue;
    }
    if (currentForm?.key !== formKey) {
      if (formNames.has(formKey)) {
        report(row, 'error', 'Form Name', {
          en: `the form ${row.form} appears again after other forms: a form's fields stand together`,
          ko: `다른 양식 뒤에 양식 ${row.form}의 필드가 다시 나옵니다: 한 양식의 필드는 모여 있어야 합니다`,
        });
        continue;
      }
      formNames.set(formKey, row.form);
      currentForm = { key: formKey, label: localized(labelFromRedcapName(row.form), formKey), sections: [] };
      forms.push(currentForm);
      currentSection = undefined;
      currentMatrix = '';
    }
    const form = currentForm;
    const type = row.type.toLowerCase();
    if (type === 'sql') {
      report(row, 'error', 'Field Type', {
        en: "an sql field reads REDCap's own database: CDMS cannot hold it, the field is left out",
        ko: 'sql 필드는 REDCap 자체 데이터베이스를 읽습니다: CDMS에는 둘 수 없어 이 필드는 빠집니다',
      });
      continue;
    }
    // A matrix group is a section of its own, unless the section it would follow has no items yet.
    const newMatrix = row.matrixGroup !== currentMatrix && (currentSection?.items.length ?? 0) > 0;
    if (row.sectionHeader !== '' || currentSection === undefined || newMatrix) {
      startSection(form, row, row.sectionHeader);
    }
    currentMatrix = row.matrixGroup;
    const section = currentSection as SectionDefinition;
    if (type === 'descriptive') {
      // Text shown among the fields: the section's help when it opens the section, else a section of its own.
      if (section.items.length > 0 || section.help !== undefined) startSection(form, row, '');
      (currentSection as SectionDefinition).help = localized(row.label, row.variable);
      continue;
    }
    const item = itemOf(row, type, codeLists, (severity, column, message) =>
      report(row, severity, column, message),
    );
    if (!item) continue;
    const field: PendingField = { row, formKey, item: item.item, yesNo: item.yesNo };
    if (fields.has(row.variable)) {
      report(row, 'error', 'Variable / Field Name', {
        en: `the field name ${row.variable} is used twice`,
        ko: `필드 이름이 중복됩니다: ${row.variable}`,
      });
      continue;
    }
    fields.set(row.variable, field);
    section.items.push(item.item);
    sectionOf.set(field, section);
  }
  // Sections left empty (a header whose fields were all left out) are dropped with them.
  for (const form of forms)
    form.sections = form.sections.filter((section) => section.items.length > 0 || section.help);

  const visits = readSchedule(options, forms, problems);
  readLogic(fields, visits, problems);

  const definition = {
    key: options.studyKey,
    version: '1.0.0',
    label: options.studyLabel,
    codeLists,
    visits,
    forms: forms.filter((form) => form.sections.length > 0),
  };
  return { definition: validateImportedDefinition(definition, problems), problems };
}

type Report = (severity: ImportProblem['severity'], column: string, message: LocalizedText) => void;

/** The item of one field row (its logic comes later), or undefined when the row cannot be one. */
function itemOf(
  row: DictionaryRow,
  type: string,
  codeLists: CodeList[],
  report: Report,
): { item: ItemDefinition; yesNo: boolean } | undefined {
  const key = readTag(row.annotation, 'KEY') ?? keyFromRedcapName(row.variable);
  const base: ItemDefinition = { key, type: 'text', label: localized(row.label, row.variable) };
  if (row.note !== '') base.help = localized(row.note, row.note);
  const unit = readTag(row.annotation, 'UNIT');
  if (unit) base.unit = unit;
  if (row.required.toLowerCase() === 'y') base.required = true;
  if (/@READONLY\b/.test(row.annotation)) base.readOnly = true;
  if (row.identifier.toLowerCase() === 'y') base.personalData = true;
  const choices = () => {
    const parsed = parseChoices(row.choices);
    if (parsed.length === 0) {
      report('error', 'Choices, Calculations, OR Slider Labels', {
        en: 'a choice field without choices',
        ko: '선택지가 없는 선택 필드입니다',
      });
      return undefined;
    }
    const named = readTag(row.annotation, 'CODELIST');
    return codeListFor(parsed, named ?? `${key}Codes`, named !== undefined, codeLists);
  };
  switch (type) {
    case 'text': {
      const validation = textValidation(row.validation);
      if (!validation) {
        report('warning', 'Text Validation Type OR Show Slider Number', {
          en: `the validation ${row.validation} has no counterpart: the field is plain text`,
          ko: `검증 ${row.validation}에 해당하는 것이 없어 일반 텍스트로 둡니다`,
        });
        return { item: base, yesNo: false };
      }
      const item: ItemDefinition = { ...base, type: validation.type };
      if (validation.decimals !== undefined) item.decimals = validation.decimals;
      if (validation.pattern) item.pattern = validation.pattern;
      if (validation.note) report('note', 'Text Validation Type OR Show Slider Number', validation.note);
      if (item.type === 'integer' || item.type === 'decimal') {
        const min = numberOrUndefined(row.min);
        const max = numberOrUndefined(row.max);
        if (min !== undefined) item.min = min;
        if (max !== undefined) item.max = max;
      }
      if (item.type === 'date' && row.max.toLowerCase() === 'today') item.notFuture = true;
      // CDMS bounds numbers and keeps dates from the future; other limits are named, not dropped in silence.
      const limits = [row.min, item.notFuture ? '' : row.max].filter((limit) => limit !== '');
      if (item.type !== 'integer' && item.type !== 'decimal' && limits.length > 0)
        report('note', 'Text Validation Min', {
          en: `the limits ${limits.join(' – ')} are not kept (CDMS limits numbers, and dates to today)`,
          ko: `이 제한값은 두지 않습니다(CDMS는 숫자의 범위와 오늘 이후 날짜만 제한합니다): ${limits.join(' – ')}`,
        });
      return { item, yesNo: false };
    }
    case 'notes':
      return { item: { ...base, type: 'textarea' }, yesNo: false };
    case 'radio':
    case 'dropdown': {
      const codeList = choices();
      if (!codeList) return undefined;
      return {
        item: { ...base, type: 'singleChoice', codeList, display: type === 'radio' ? 'radio' : 'select' },
        yesNo: false,
      };
    }
    case 'checkbox': {
      const parsed = parseChoices(row.choices);
      // One box coded 1 ("I agree") is a single tick box; more are a choice of several.
      if (parsed.length === 1 && parsed[0]?.code === '1') {
        return {
          item: { ...base, type: 'checkbox', label: localized(parsed[0].label || row.label, row.variable) },
          yesNo: false,
        };
      }
      const codeList = choices();
      if (!codeList) return undefined;
      return { item: { ...base, type: 'multipleChoice', codeList }, yesNo: false };
    }
    case 'yesno':
      return { item: { ...base, type: 'yesNo' }, yesNo: true };
    case 'truefalse': {
      const codeList = codeListFor(
        [
          { code: '1', label: 'True' },
          { code: '0', label: 'False' },
        ],
        'trueFalse',
        false,
        codeLists,
      );
      return { item: { ...base, type: 'singleChoice', codeList, display: 'radio' }, yesNo: false };
    }
    case 'calc':
      // The calculation itself is read with the other logic, once every field is known.
      return { item: { ...base, type: 'decimal' }, yesNo: false };
    case 'slider': {
      report('note', 'Field Type', {
        en: 'a slider: held as a whole number from 0 to 100 (its labels are not kept)',
        ko: '슬라이더: 0~100의 정수로 둡니다(눈금 이름은 두지 않습니다)',
      });
      return { item: { ...base, type: 'integer', min: 0, max: 100 }, yesNo: false };
    }
    case 'file':
      report('note', 'Field Type', {
        en: 'a file upload: held as a photo (CDMS stores pictures, not other files)',
        ko: '파일 업로드: 사진 항목으로 둡니다(CDMS는 사진만 저장합니다)',
      });
      return { item: { ...base, type: 'photo' }, yesNo: false };
    default:
      report('error', 'Field Type', {
        en: `unknown field type "${row.type}": the field is left out`,
        ko: `알 수 없는 필드 유형 "${row.type}": 이 필드는 빠집니다`,
      });
      return undefined;
  }
}

/**
 * The key of a code list with these choices. A list named in the annotation (`@CDMS-CODELIST`) keeps
 * its name; an unnamed one reuses a list with the same choices, else gets one of its own.
 */
function codeListFor(
  choices: { code: string; label: string }[],
  wanted: string,
  named: boolean,
  codeLists: CodeList[],
): string {
  const codes = choices.map((choice) => ({ code: choice.code, label: localized(choice.label, choice.code) }));
  const same = (list: CodeList) => JSON.stringify(list.codes) === JSON.stringify(codes);
  const existing = named ? codeLists.find((list) => list.key === wanted && same(list)) : codeLists.find(same);
  if (existing) return existing.key;
  let key = wanted;
  for (let n = 2; codeLists.some((list) => list.key === key); n += 1) key = `${wanted}${n}`;
  codeLists.push({ key, codes });
  return key;
}

/** Visits from the instrument–event mapping, or one visit holding every form. */
function readSchedule(
  options: RedcapImportOptions,
  forms: FormDefinition[],
  problems: ImportProblem[],
): VisitDefinition[] {
  const known = new Set(forms.map((form) => form.key));
  if (options.eventMapping === undefined) {
    return [
      {
        key: 'visit',
        label: { ko: '방문', en: 'Visit' },
        group: 'follow_up',
        forms: forms.map((form) => form.key),
      },
    ];
  }
  const mapping = readEventMapping(options.eventMapping);
  problems.push(...mapping.problems);
  const visits: VisitDefinition[] = [];
  for (const row of mapping.events) {
    const formKey = keyFromRedcapName(row.form);
    if (!known.has(formKey)) {
      problems.push({
        severity: 'warning',
        line: row.line,
        column: 'form',
        message: {
          en: `event mapping: the form ${row.form} is not in the dictionary`,
          ko: `이벤트 대응표: 데이터 사전에 없는 양식 ${row.form}`,
        },
      });
      continue;
    }
    const key = visitKeyFromEventName(row.event);
    let visit = visits.find((candidate) => candidate.key === key);
    if (!visit) {
      visit = {
        key,
        label: localized(labelFromRedcapName(row.event.replace(/_arm_\d+[a-z]?$/, '')), key),
        group: 'follow_up',
        forms: [],
      };
      visits.push(visit);
    }
    if (!visit.forms.includes(formKey)) visit.forms.push(formKey);
  }
  return visits;
}

/** Branching logic (show when) and calculations (derive), once every field and visit is known. */
function readLogic(
  fields: Map<string, PendingField>,
  visits: VisitDefinition[],
  problems: ImportProblem[],
): void {
  for (const field of fields.values()) {
    const { row, item } = field;
    const scope = {
      formKey: field.formKey,
      field: (name: string): LogicField | undefined => {
        const named = fields.get(name);
        return (
          named && { key: named.item.key, formKey: named.formKey, type: named.item.type, yesNo: named.yesNo }
        );
      },
      visit: (eventName: string) => {
        const key = visitKeyFromEventName(eventName);
        return visits.some((visit) => visit.key === key) ? key : undefined;
      },
    };
    const translate = (text: string, column: string, what: LocalizedText): Expression | undefined => {
      const result = translateRedcapLogic(text, scope);
      if ('problem' in result) {
        problems.push({
          severity: 'warning',
          line: row.line,
          column,
          field: row.variable,
          message: {
            en: `${what.en} not translated (${result.problem.en}); the field is kept without it: ${text}`,
            ko: `${what.ko} 옮기지 못했습니다(${result.problem.ko}); 필드는 그것 없이 둡니다: ${text}`,
          },
        });
        return undefined;
      }
      for (const note of result.notes)
        problems.push({ severity: 'note', line: row.line, column, field: row.variable, message: note });
      return result.expression;
    };
    if (row.branching !== '') {
      const showWhen = translate(row.branching, 'Branching Logic (Show field only if...)', {
        en: 'the branching logic was',
        ko: '분기 로직을',
      });
      if (showWhen !== undefined) item.showWhen = showWhen;
    }
    if (row.type.toLowerCase() === 'calc') {
      const derive =
        row.choices === ''
          ? undefined
          : translate(row.choices, 'Choices, Calculations, OR Slider Labels', {
              en: 'the calculation was',
              ko: '계산식을',
            });
      if (derive !== undefined) item.derive = derive;
      else item.readOnly = true;
    }
  }
}
