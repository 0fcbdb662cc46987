import type { CodeList, FormDefinition, LocalizedText, StudyDefinition, VisitDefinition } from '@cdms/study';
import { move, replaceAt, toggleInOrder } from './list-edits.ts';

/**
 * The designer's editing model: the definition being edited (`present`), the versions before it
 * (`past`, for undo) and after it (`future`, for redo), and the version last loaded or saved
 * (`saved`). Every edit makes a new definition object, so "unsaved changes" is simply
 * `present !== saved`: undoing back to the saved version leaves nothing to save.
 */
export interface DesignerState {
  past: readonly StudyDefinition[];
  present: StudyDefinition;
  future: readonly StudyDefinition[];
  saved: StudyDefinition;
  /**
   * The `coalesce` name of the last edit: a run of edits of one field (each keystroke of a label) is one
   * step to undo, not one per character.
   */
  lastCoalesce: string | null;
}

export type VisitFields = Pick<VisitDefinition, 'key' | 'label' | 'group' | 'window'>;
export type FormFields = Pick<FormDefinition, 'key' | 'label'>;

export type DesignerEdit =
  | { type: 'addVisit'; visit: VisitFields }
  | {
      type: 'updateVisit';
      index: number;
      label: LocalizedText;
      group: VisitDefinition['group'];
      /** The visit's window; undefined: none. */
      window?: VisitDefinition['window'];
    }
  | { type: 'moveVisit'; index: number; to: number }
  | { type: 'removeVisit'; index: number }
  | { type: 'addForm'; form: FormFields }
  | { type: 'renameForm'; index: number; label: LocalizedText }
  | { type: 'moveForm'; index: number; to: number }
  /** The form leaves the study, every visit's schedule and the unscheduled visit's forms. */
  | { type: 'removeForm'; index: number }
  | { type: 'toggleCell'; visitIndex: number; formKey: string }
  /**
   * The form editor's edits (form-edits.ts): the form at `index` becomes `form`. Successive edits with
   * the same `coalesce` name (one field being typed in) make one step of the history.
   */
  | { type: 'replaceForm'; index: number; form: FormDefinition; coalesce?: string }
  /** The code list editor's edits (code-list-edits.ts): the study's code lists become `codeLists`. */
  | { type: 'replaceCodeLists'; codeLists: CodeList[]; coalesce?: string }
  /**
   * The study settings' edits (study-settings-edits.ts, study-roles.ts): the visit date, the unscheduled
   * visit, the parameters, the status rules and the roles become `settings` (a part left out is removed from the study).
   */
  | { type: 'replaceSettings'; settings: StudySettings; coalesce?: string };

/** The study-wide parts of a definition the settings view edits. */
export type StudySettings = Pick<
  StudyDefinition,
  'visitDate' | 'unscheduledVisit' | 'parameters' | 'subjectStatus' | 'roles'
>;
export const STUDY_SETTINGS_KEYS = [
  'visitDate',
  'unscheduledVisit',
  'parameters',
  'subjectStatus',
  'roles',
] as const;

export type DesignerAction =
  | DesignerEdit
  | { type: 'undo' }
  | { type: 'redo' }
  /** A definition from the server (first load, another designer's draft, a publish): history starts again. */
  | { type: 'load'; definition: StudyDefinition }
  /** The server holds `definition` now (an autosave's answer): the history stays, as after any save. */
  | { type: 'saved'; definition: StudyDefinition };

export function initialDesignerState(definition: StudyDefinition): DesignerState {
  return { past: [], present: definition, future: [], saved: definition, lastCoalesce: null };
}

/**
 * The state of a designer that finds, on this computer, edits of the server's draft that never reached
 * it (the connection dropped, the page was closed): they are the present, still to save, and one undo
 * goes back to what the server holds.
 */
export function restoredDesignerState(saved: StudyDefinition, unsent: StudyDefinition): DesignerState {
  return { past: [saved], present: unsent, future: [], saved, lastCoalesce: null };
}

export function hasUnsavedChanges(state: DesignerState): boolean {
  return state.present !== state.saved;
}

/**
 * The section a new form starts with: the model wants at least one section per form, and an empty
 * one is valid. Its items are added in the form editor.
 */
export const NEW_FORM_SECTION: FormDefinition['sections'][number] = {
  key: 'main',
  label: { ko: '기본', en: 'Main' },
  items: [],
};

export function designerReducer(state: DesignerState, action: DesignerAction): DesignerState {
  switch (action.type) {
    case 'load':
      return initialDesignerState(action.definition);
    case 'saved':
      return { ...state, saved: action.definition };
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return {
        ...state,
        past: state.past.slice(0, -1),
        present: previous,
        future: [state.present, ...state.future],
        lastCoalesce: null,
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return {
        ...state,
        past: [...state.past, state.present],
        present: next,
        future: rest,
        lastCoalesce: null,
      };
    }
    default: {
      const next = applyEdit(state.present, action);
      // An edit that changes nothing (moving the first visit left) adds no step to undo.
      if (next === state.present) return state;
      const coalesce = 'coalesce' in action ? (action.coalesce ?? null) : null;
      if (coalesce !== null && coalesce === state.lastCoalesce)
        return { ...state, present: next, future: [] };
      return {
        ...state,
        past: [...state.past, state.present],
        present: next,
        future: [],
        lastCoalesce: coalesce,
      };
    }
  }
}

/** One edit of the definition, as a pure function; the same definition back when nothing changes. */
export function applyEdit(definition: StudyDefinition, edit: DesignerEdit): StudyDefinition {
  const { visits, forms } = definition;
  switch (edit.type) {
    case 'addVisit': {
      const { window, ...visit } = edit.visit;
      return { ...definition, visits: [...visits, { ...visit, ...(window ? { window } : {}), forms: [] }] };
    }
    case 'updateVisit':
      return {
        ...definition,
        visits: replaceAt(visits, edit.index, (visit) => {
          const { window: _previous, ...rest } = visit;
          return {
            ...rest,
            label: edit.label,
            group: edit.group,
            ...(edit.window ? { window: edit.window } : {}),
          };
        }),
      };
    case 'moveVisit': {
      const moved = move(visits, edit.index, edit.to);
      return moved === visits ? definition : { ...definition, visits: moved };
    }
    case 'removeVisit':
      if (visits.length <= 1 || !visits[edit.index]) return definition; // a study keeps at least one visit
      return { ...definition, visits: visits.filter((_, index) => index !== edit.index) };
    case 'addForm':
      return { ...definition, forms: [...forms, { ...edit.form, sections: [NEW_FORM_SECTION] }] };
    case 'renameForm':
      return {
        ...definition,
        forms: replaceAt(forms, edit.index, (form) => ({ ...form, label: edit.label })),
      };
    case 'moveForm': {
      const moved = move(forms, edit.index, edit.to);
      return moved === forms ? definition : { ...definition, forms: moved };
    }
    case 'removeForm':
      return removeForm(definition, edit.index);
    case 'replaceForm':
      if (!forms[edit.index] || forms[edit.index] === edit.form) return definition;
      return { ...definition, forms: replaceAt(forms, edit.index, () => edit.form) };
    case 'replaceCodeLists':
      return edit.codeLists === definition.codeLists
        ? definition
        : { ...definition, codeLists: edit.codeLists };
    case 'replaceSettings': {
      if (STUDY_SETTINGS_KEYS.every((key) => definition[key] === edit.settings[key])) return definition;
      const next: StudyDefinition = { ...definition, ...edit.settings };
      for (const key of STUDY_SETTINGS_KEYS) if (edit.settings[key] === undefined) delete next[key];
      return next;
    }
    case 'toggleCell':
      return {
        ...definition,
        visits: replaceAt(visits, edit.visitIndex, (visit) => ({
          ...visit,
          // Kept in the order of the form rows, so a visit lists its forms as the grid shows them.
          forms: toggleInOrder(
            visit.forms,
            edit.formKey,
            forms.map((form) => form.key),
          ),
        })),
      };
  }
}

/** The forms a visit's removal drops from the schedule (for the confirmation). */
export function formsOfVisit(definition: StudyDefinition, visitIndex: number): FormDefinition[] {
  const visit = definition.visits[visitIndex];
  return visit ? definition.forms.filter((form) => visit.forms.includes(form.key)) : [];
}

/**
 * A label in the reader's language, else in the other one (a missing translation is shown with a
 * marker beside it, `missingTranslation`).
 */
export function labelIn(label: LocalizedText, language: string): string {
  const preferred = language.startsWith('en') ? label.en : label.ko;
  return preferred || label.ko || label.en;
}

/** The languages a label lacks. Only an empty text is missing: an English word in Korean is allowed. */
export function missingTranslation(label: LocalizedText): Array<keyof LocalizedText> {
  return (['ko', 'en'] as const).filter((language) => label[language].trim() === '');
}

/**
 * The element a server problem is about, from its JSON Pointer: `/visits/2/label/en` is the third
 * visit, `/forms/0/sections/1/…` the first form. Null for anything else (the study, code lists…).
 */
export function problemTarget(pointer: string): { kind: 'visit' | 'form'; index: number } | null {
  const match = /^\/(visits|forms)\/(\d+)(?:\/|$)/.exec(pointer);
  if (!match) return null;
  return { kind: match[1] === 'visits' ? 'visit' : 'form', index: Number(match[2]) };
}

/** A new empty design: one visit and one form in it (the model wants at least one of each). */
export function emptyDefinition(studyCode: string, title: LocalizedText): StudyDefinition {
  const key = studyCode.replace(/[^A-Za-z0-9]/g, '').replace(/^[^A-Za-z]+/, '') || 'study';
  return {
    key,
    version: '0.1.0',
    label: title,
    codeLists: [],
    visits: [{ key: 'V1', label: { ko: '방문 1', en: 'Visit 1' }, group: 'screening', forms: ['F1'] }],
    forms: [{ key: 'F1', label: { ko: '양식 1', en: 'Form 1' }, sections: [NEW_FORM_SECTION] }],
  };
}

/**
 * The study without the form at `index` (a study keeps at least one form): it leaves each visit's
 * schedule and the unscheduled visit's forms too. What else names it (an expression, a role, the visit
 * date) is left for the definition's problems to point out, as after removing a visit.
 */
function removeForm(definition: StudyDefinition, index: number): StudyDefinition {
  const removed = definition.forms[index];
  if (definition.forms.length <= 1 || !removed) return definition;
  const without = (keys: string[]) => keys.filter((key) => key !== removed.key);
  const next: StudyDefinition = {
    ...definition,
    forms: definition.forms.filter((_, formIndex) => formIndex !== index),
    visits: definition.visits.map((visit) =>
      visit.forms.includes(removed.key) ? { ...visit, forms: without(visit.forms) } : visit,
    ),
  };
  const unscheduled = definition.unscheduledVisit;
  if (unscheduled?.forms.includes(removed.key)) {
    const forms = without(unscheduled.forms);
    if (forms.length > 0) next.unscheduledVisit = { ...unscheduled, forms };
    else delete next.unscheduledVisit;
  }
  return next;
}
