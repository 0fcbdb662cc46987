import { type StudyDefinition, studyDefinitionShapeSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';

/** Names of a row's visit, form and item in one language. */
export interface ImpactLabels {
  visit(key: string | null): string | null;
  form(key: string | null): string | null;
  /** An item path as the rows write it (`item`, `group[1].item`): the item's name, a row's number after it. */
  item(form: string | null, path: string | null): string | null;
}

/**
 * The names the impact drill-down shows for keys: the draft's (the next version: an added form is named
 * there), else the live version's (a retired one is named there); a key neither knows shows as itself.
 */
export async function impactLabels(
  db: Kysely<Database>,
  studyId: number,
  language: Language,
): Promise<ImpactLabels> {
  const draft = await designDraftRow(db, studyId);
  const parsed = studyDefinitionShapeSchema.safeParse(draft?.definition);
  const live = await currentStudyDefinition(db, studyId);
  const definitions = [
    ...(parsed.success ? [parsed.data as StudyDefinition] : []),
    ...(live ? [live.definition] : []),
  ];
  const visits = new Map<string, string>();
  const forms = new Map<string, string>();
  const items = new Map<string, string>();
  // The live version first, then the draft over it: the next version's names win.
  for (const definition of [...definitions].reverse()) {
    for (const visit of definition.visits ?? []) visits.set(visit.key, visit.label[language]);
    for (const form of definition.forms ?? []) {
      forms.set(form.key, form.label[language]);
      for (const sections of [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)])
        for (const section of sections)
          for (const item of section.items) items.set(`${form.key}.${item.key}`, item.label[language]);
    }
  }
  return {
    visit: (key) => (key === null ? null : (visits.get(key) ?? key)),
    form: (key) => (key === null ? null : (forms.get(key) ?? key)),
    item: (form, path) => {
      if (path === null) return null;
      const match = /^(?:[^[.]+\[(\d+)\]\.)?([^.]+)$/.exec(path);
      const key = match?.[2] ?? path;
      const name = items.get(`${form}.${key}`) ?? key;
      const row = match?.[1];
      return row === undefined ? name : `${name} #${Number(row) + 1}`;
    },
  };
}
