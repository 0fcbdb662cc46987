import type { Language, LocalizedText } from '../../model/localized-text.ts';
import type { ItemDefinition, StudyDefinition } from '../../model/study-definition.ts';
import { PATTERNS } from './read-redcap-dictionary.ts';
import {
  type DictionaryRow,
  type ImportProblem,
  writeChoices,
  writeDictionaryRows,
  writeEventMapping,
  writeTags,
} from './redcap-dictionary.ts';
import { eventNameFromVisitKey, keyRoundTrips, redcapNameFromKey } from './redcap-names.ts';
import { type LogicNames, writeRedcapLogic } from './write-redcap-logic.ts';

/**
 * A study definition written as a REDCap data dictionary and instrument–event mapping, for what
 * REDCap can express: forms, sections, items and their types, choices, ranges, required, branching
 * logic and calculations, in one language. What it cannot (edit checks, routing outcomes, windows,
 * visit-specific layouts, repeating groups, conditional requirement, the study's roles) is listed,
 * form by form, in the problems beside the files; `readRedcapDictionary` reads the files back.
 */

export interface RedcapExport {
  dictionary: string;
  eventMapping: string;
  /** What the dictionary could not say (severity note), with the place. */
  problems: ImportProblem[];
}

type Row = Omit<DictionaryRow, 'line'>;

/** The label of the record identifier REDCap needs first (CDMS numbers its subjects itself). */
const RECORD_ID_LABEL: LocalizedText = { ko: '연구 대상자 번호', en: 'Record ID' };

function emptyRow(): Row {
  return {
    variable: '',
    form: '',
    sectionHeader: '',
    type: '',
    label: '',
    choices: '',
    note: '',
    validation: '',
    min: '',
    max: '',
    identifier: '',
    branching: '',
    required: '',
    alignment: '',
    questionNumber: '',
    matrixGroup: '',
    matrixRanking: '',
    annotation: '',
  };
}

/** Each item's REDCap variable: its key's name, made unique across the project by its form's name. */
function variableNames(definition: StudyDefinition): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>(['record_id']);
  for (const form of definition.forms) {
    for (const section of form.sections) {
      for (const item of section.items) {
        const id = `${form.key}.${item.key}`;
        if (names.has(id)) continue;
        let name = redcapNameFromKey(item.key);
        if (used.has(name)) name = `${redcapNameFromKey(form.key)}_${name}`;
        for (let n = 2; used.has(name); n += 1)
          name = `${redcapNameFromKey(form.key)}_${redcapNameFromKey(item.key)}_${n}`;
        used.add(name);
        names.set(id, name);
      }
    }
  }
  return names;
}

export function writeRedcapDictionary(definition: StudyDefinition, language: Language): RedcapExport {
  const problems: ImportProblem[] = [];
  const note = (field: string | undefined, en: string, ko: string) =>
    problems.push({ severity: 'note', field, message: { en, ko } });
  const text = (value: LocalizedText) => value[language];
  const variables = variableNames(definition);
  const items = new Map<string, ItemDefinition>();
  for (const form of definition.forms)
    for (const section of form.sections)
      for (const item of section.items) items.set(`${form.key}.${item.key}`, item);
  const names: LogicNames = {
    field: (formKey, itemKey) => {
      const name = variables.get(`${formKey}.${itemKey}`);
      const type = items.get(`${formKey}.${itemKey}`)?.type;
      return name === undefined
        ? undefined
        : { name, yesNo: type === 'yesNo', checkbox: type === 'checkbox' };
    },
    eventName: eventNameFromVisitKey,
    param: (name) => definition.parameters?.[name]?.value,
  };
  const codeLists = new Map(definition.codeLists.map((list) => [list.key, list]));

  const firstForm = definition.forms[0];
  const rows: Row[] = [
    {
      ...emptyRow(),
      variable: 'record_id',
      form: redcapNameFromKey(firstForm?.key ?? 'form'),
      type: 'text',
      label: RECORD_ID_LABEL[language],
    },
  ];
  for (const form of definition.forms) {
    const formName = redcapNameFromKey(form.key);
    if (form.variants?.length)
      note(
        form.key,
        `${form.key}: its layouts for particular visits are not written (REDCap has one layout a form)`,
        `${form.key}: 방문별 배치는 쓰지 않았습니다(REDCap은 양식마다 배치가 하나입니다)`,
      );
    if (form.checks?.length)
      note(
        form.key,
        `${form.key}: ${form.checks.length} edit checks are not written (REDCap keeps data quality rules apart)`,
        `${form.key}: 검증 규칙 ${form.checks.length}개는 쓰지 않았습니다(REDCap은 데이터 품질 규칙을 따로 둡니다)`,
      );
    if (form.outcomes?.length)
      note(
        form.key,
        `${form.key}: routing outcomes are not written`,
        `${form.key}: 경로 안내는 쓰지 않았습니다`,
      );
    for (const section of form.sections) {
      if (section.repeating)
        note(
          form.key,
          `${form.key}.${section.key}: a repeating group is written as single fields (REDCap repeats whole instruments)`,
          `${form.key}.${section.key}: 반복 그룹을 단일 필드로 썼습니다(REDCap은 양식 전체를 반복합니다)`,
        );
      let header = text(section.label);
      const tags = { SECTION: section.key };
      if (section.help) {
        rows.push({
          ...emptyRow(),
          variable: `${formName}_${redcapNameFromKey(section.key)}_help`,
          form: formName,
          sectionHeader: header,
          type: 'descriptive',
          label: text(section.help),
          annotation: writeTags(tags),
        });
        header = '';
      }
      let first = !section.help;
      for (const item of section.items) {
        const row = itemRow(
          item,
          form.key,
          formName,
          variables.get(`${form.key}.${item.key}`) as string,
          language,
          names,
          codeLists,
          problems,
        );
        if (first) {
          row.sectionHeader = header;
          row.annotation = writeTags(tags, row.annotation === '' ? [] : [row.annotation]);
        }
        first = false;
        const showWhen = [section.showWhen, item.showWhen].filter((expression) => expression !== undefined);
        if (showWhen.length > 0) {
          const expression = showWhen.length === 1 ? showWhen[0] : { op: 'and' as const, args: showWhen };
          const written = writeRedcapLogic(expression ?? null, form.key, names);
          if ('logic' in written) row.branching = written.logic;
          else
            problems.push({
              severity: 'note',
              field: item.key,
              column: 'Branching Logic (Show field only if...)',
              message: {
                en: `${form.key}.${item.key}: show-when not written (${written.problem.en})`,
                ko: `${form.key}.${item.key}: 표시 조건을 쓰지 못했습니다(${written.problem.ko})`,
              },
            });
        }
        rows.push(row);
      }
    }
  }
  const mapping = definition.visits.flatMap((visit) =>
    visit.forms.map((formKey) => ({
      event: eventNameFromVisitKey(visit.key),
      form: redcapNameFromKey(formKey),
    })),
  );
  if (definition.visits.some((visit) => visit.window))
    note(
      undefined,
      'visit windows are not written (REDCap keeps event offsets in its events file)',
      '방문 허용 범위는 쓰지 않았습니다(REDCap은 이벤트 파일에 둡니다)',
    );
  return { dictionary: writeDictionaryRows(rows), eventMapping: writeEventMapping(mapping), problems };
}

function itemRow(
  item: ItemDefinition,
  formKey: string,
  formName: string,
  variable: string,
  language: Language,
  names: LogicNames,
  codeLists: Map<string, StudyDefinition['codeLists'][number]>,
  problems: ImportProblem[],
): Row {
  const note = (en: string, ko: string) =>
    problems.push({
      severity: 'note',
      field: item.key,
      message: { en: `${formKey}.${item.key}: ${en}`, ko: `${formKey}.${item.key}: ${ko}` },
    });
  const row: Row = { ...emptyRow(), variable, form: formName, label: item.label[language] };
  const tags: Record<string, string | undefined> = {
    KEY: keyRoundTrips(item.key) && redcapNameFromKey(item.key) === variable ? undefined : item.key,
    UNIT: item.unit,
  };
  const actionTags: string[] = [];
  if (item.help) row.note = item.help[language];
  if (item.required) row.required = 'y';
  if (item.personalData) row.identifier = 'y';
  const range = () => {
    const min = item.min ?? item.hardMin;
    const max = item.max ?? item.hardMax;
    if (min !== undefined) row.min = String(min);
    if (max !== undefined) row.max = String(max);
  };
  const choices = () => {
    const list = item.codeList ? codeLists.get(item.codeList) : undefined;
    tags.CODELIST = item.codeList;
    return list
      ? writeChoices(list.codes.map((code) => ({ code: code.code, label: code.label[language] })))
      : '';
  };
  switch (item.type) {
    case 'text':
      row.type = 'text';
      if (item.pattern) {
        // A pattern REDCap names (email, phone…) is its validation; any other has no column.
        const validation = Object.entries(PATTERNS).find(
          ([name, pattern]) => pattern === item.pattern && !name.startsWith('datetime'),
        );
        if (validation) row.validation = validation[0];
        else note('its pattern is not written', '입력 형식은 쓰지 않았습니다');
      }
      break;
    case 'textarea':
      row.type = 'notes';
      break;
    case 'integer':
    case 'decimal':
      row.type = 'text';
      row.validation =
        item.type === 'integer'
          ? 'integer'
          : item.decimals && item.decimals <= 4
            ? `number_${item.decimals}dp`
            : 'number';
      range();
      break;
    case 'date':
      row.type = 'text';
      row.validation = 'date_ymd';
      if (item.notFuture) row.max = 'today';
      break;
    case 'time':
      row.type = 'text';
      row.validation = 'time';
      break;
    case 'singleChoice':
      row.type = item.display === 'select' ? 'dropdown' : 'radio';
      row.choices = choices();
      break;
    case 'multipleChoice':
      row.type = 'checkbox';
      row.choices = choices();
      break;
    case 'checkbox':
      row.type = 'checkbox';
      row.choices = writeChoices([{ code: '1', label: item.label[language] }]);
      break;
    case 'yesNo':
      row.type = 'yesno';
      break;
    case 'photo':
    case 'tracing':
      row.type = 'file';
      if (item.type === 'tracing')
        note('a tracing is written as a file upload', '윤곽 그리기는 파일 업로드로 썼습니다');
      break;
  }
  if (item.derive !== undefined) {
    const written = writeRedcapLogic(item.derive, formKey, names);
    if ((item.type === 'integer' || item.type === 'decimal') && 'logic' in written) {
      row.type = 'calc';
      row.choices = written.logic;
      row.validation = '';
      row.min = '';
      row.max = '';
    } else {
      actionTags.push('@READONLY');
      note(
        'logic' in written
          ? 'a derived value that is not a number is written read-only, without its derivation'
          : `its derivation is not written (${written.problem.en})`,
        'logic' in written
          ? '숫자가 아닌 계산값은 계산식 없이 읽기 전용으로 썼습니다'
          : `계산식을 쓰지 못했습니다(${written.problem.ko})`,
      );
    }
  } else if (item.readOnly) actionTags.push('@READONLY');
  if (item.requiredWhen !== undefined)
    note('its conditional requirement is not written', '조건부 필수는 쓰지 않았습니다');
  row.annotation = writeTags(tags, actionTags);
  return row;
}
