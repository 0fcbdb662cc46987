import path from 'node:path';
import { todayInKorea } from '@cdms/contract';
import { localizedTextSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { openAmendment } from '../amendments/open-amendment.ts';
import { runImpactAnalysis } from '../amendments/run-impact-analysis.ts';
import type { Database } from '../db/schema.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import { saveDesignDraft } from '../study-design/save-design-draft.ts';
import { personByEmail } from './demo-subjects.ts';
import { readDataFile } from './read-data-file.ts';

const keySchema = z.string().min(1);
/** A form or item of the definition as JSON: the design draft's save and the amendment's change set check it. */
const elementSchema = z
  .record(z.string(), z.unknown())
  .and(z.object({ key: keySchema, label: localizedTextSchema }));

/** `demo-amendment.json`: the amendment and its edits of the live version, as data (no study key in code). */
const demoAmendmentSchema = z.strictObject({
  number: z.string(),
  reason: z.string(),
  /** Each site's ethics approval, days from today (negative: already in effect); sites left out have none yet. */
  sites: z.array(z.strictObject({ institutionNumber: z.string(), effectiveInDays: z.number().int() })),
  addForms: z.array(z.strictObject({ visits: z.array(keySchema), form: elementSchema })),
  addItems: z.array(z.strictObject({ form: keySchema, after: keySchema, item: elementSchema })),
  setItemFields: z.array(
    z.strictObject({ form: keySchema, item: keySchema, fields: z.record(z.string(), z.unknown()) }),
  ),
});
type DemoAmendment = z.infer<typeof demoAmendmentSchema>;

interface DraftDocument {
  visits: { key: string; forms: string[] }[];
  forms: { key: string; sections: { items: { key: string }[] }[] }[];
}

/**
 * Issue 49 item 7: the living demo's amendment waiting for approval — the data manager opens AM-01 on
 * TMP-2026 through `openAmendment` (site 01's approval in effect, site 02's in two weeks, site 03's not
 * yet given) and drafts its next version through the design draft's save, as the designer does: a
 * tinnitus VAS form at the follow-up visits, the respiratory rate added to the vital signs (saved
 * vital signs become incomplete), the pulse rate's upper limit raised (its open queries would close).
 * The edits are data, in `demo-amendment.json`; its impact analysis is run as the data manager would.
 */
export async function seedDemoAmendment(
  db: Kysely<Database>,
  input: { studyId: number; dataManager: string },
): Promise<number> {
  const plan = readDataFile(path.join(import.meta.dirname, 'demo-amendment.json'), demoAmendmentSchema);
  const dataManager = await personByEmail(db, input.dataManager);
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', input.studyId)
    .execute();
  const today = todayInKorea();
  const { id } = await openAmendment(db, dataManager.principal, dataManager.actor, input.studyId, {
    number: plan.number,
    reason: plan.reason,
    sites: plan.sites.map((entry) => {
      const site = sites.find((row) => row.institution_number === entry.institutionNumber);
      if (!site) throw new Error(`demo-amendment.json: no site ${entry.institutionNumber}`);
      return { siteId: site.id, effectiveOn: daysFrom(today, entry.effectiveInDays) };
    }),
  });
  const draft = await designDraftRow(db, input.studyId);
  if (!draft) throw new Error('openAmendment leaves a design draft');
  await saveDesignDraft(
    db,
    dataManager.principal,
    dataManager.actor,
    input.studyId,
    { baseRevision: draft.revision, definition: edited(draft.definition as DraftDocument, plan) },
    'ko',
  );
  // Its impact read at first look, as the data manager's analysis left it.
  await runImpactAnalysis(db, dataManager.principal, input.studyId, id);
  return id;
}

/** The draft with the plan's edits; an edit naming what the draft lacks fails the seed, naming it. */
function edited(draft: DraftDocument, plan: DemoAmendment): Record<string, unknown> {
  const next = structuredClone(draft);
  const form = (key: string) => {
    const found = next.forms.find((entry) => entry.key === key);
    if (!found) throw new Error(`demo-amendment.json: no form ${key}`);
    return found;
  };
  for (const added of plan.addForms) {
    next.forms.push(added.form as unknown as DraftDocument['forms'][number]);
    for (const visit of next.visits) if (added.visits.includes(visit.key)) visit.forms.push(added.form.key);
  }
  for (const added of plan.addItems) {
    const section = form(added.form).sections.find((entry) =>
      entry.items.some((item) => item.key === added.after),
    );
    if (!section) throw new Error(`demo-amendment.json: no item ${added.form}.${added.after}`);
    const at = section.items.findIndex((item) => item.key === added.after);
    section.items.splice(at + 1, 0, added.item);
  }
  for (const change of plan.setItemFields) {
    const item = form(change.form)
      .sections.flatMap((section) => section.items)
      .find((entry) => entry.key === change.item);
    if (!item) throw new Error(`demo-amendment.json: no item ${change.form}.${change.item}`);
    Object.assign(item, change.fields);
  }
  return next as unknown as Record<string, unknown>;
}

/** The calendar date `days` after `date` (YYYY-MM-DD). */
function daysFrom(date: string, days: number): string {
  const instant = new Date(`${date}T00:00:00Z`);
  instant.setUTCDate(instant.getUTCDate() + days);
  return instant.toISOString().slice(0, 10);
}
