import path from 'node:path';
import { todayInKorea } from '@cdms/contract';
import { localizedTextSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { runMigrationTurn } from '../amendment-migration/run-migration-turn.ts';
import { changeAmendment } from '../amendments/change-amendment.ts';
import { openAmendment } from '../amendments/open-amendment.ts';
import { publishAmendment } from '../amendments/publish-amendment.ts';
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
  /** Published with the data manager's signature, its migration run as the worker would run it. */
  publish: z.boolean(),
  /** Each site's ethics approval, days from today (negative: already in effect); sites left out have none yet. */
  sites: z.array(z.strictObject({ institutionNumber: z.string(), effectiveInDays: z.number().int() })),
  addForms: z.array(z.strictObject({ visits: z.array(keySchema), form: elementSchema })),
  addItems: z.array(z.strictObject({ form: keySchema, after: keySchema, item: elementSchema })),
  setItemFields: z.array(
    z.strictObject({ form: keySchema, item: keySchema, fields: z.record(z.string(), z.unknown()) }),
  ),
  /** Codes of a code list re-coded (old → new), declared as the amendment's code mapping. */
  renameCodes: z.array(z.strictObject({ codeList: keySchema, map: z.record(z.string(), z.string()) })),
});
type DemoAmendment = z.infer<typeof demoAmendmentSchema>;
const demoAmendmentsSchema = z.strictObject({ amendments: z.array(demoAmendmentSchema) });

interface DraftDocument {
  visits: { key: string; forms: string[] }[];
  forms: { key: string; sections: { items: { key: string }[] }[] }[];
  codeLists: { key: string; codes: { code: string }[] }[];
}

/**
 * Issue 49 item 7: the living demo's amendments of TMP-2026, in `demo-amendment.json` (edits as data,
 * no study key in code), each made as the data manager makes it: opened through `openAmendment` with
 * its sites' approval dates, its next version drafted through the design draft's save, its code
 * mappings declared, its impact analyzed. AM-01 (a tinnitus VAS form at the follow-up visits, the
 * respiratory rate required in the vital signs, the pulse's upper limit raised) is then published with
 * the data manager's e-signature and its migration run as the worker runs it: site 02 approved it three
 * days ago, so its subjects are moved (but any with a frozen or locked form it touches); site 01's
 * approval takes effect in two weeks and site 03 has none yet, so theirs wait. AM-02 (a wider temperature range, a
 * re-coded choice) is drafted and waits for approval.
 */
export async function seedDemoAmendments(
  db: Kysely<Database>,
  input: { studyId: number; dataManager: string; password: string },
): Promise<void> {
  const { amendments } = readDataFile(
    path.join(import.meta.dirname, 'demo-amendment.json'),
    demoAmendmentsSchema,
  );
  const dataManager = await personByEmail(db, input.dataManager);
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'institution_number'])
    .where('study_id', '=', input.studyId)
    .execute();
  const today = todayInKorea();
  for (const plan of amendments) {
    const fields = {
      number: plan.number,
      reason: plan.reason,
      sites: plan.sites.map((entry) => {
        const site = sites.find((row) => row.institution_number === entry.institutionNumber);
        if (!site) throw new Error(`demo-amendment.json: no site ${entry.institutionNumber}`);
        return { siteId: site.id, effectiveOn: daysFrom(today, entry.effectiveInDays) };
      }),
    };
    const { id } = await openAmendment(db, dataManager.principal, dataManager.actor, input.studyId, fields);
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
    if (plan.renameCodes.length > 0)
      await changeAmendment(db, dataManager.actor, input.studyId, id, {
        ...fields,
        declarations: { codeMappings: plan.renameCodes },
      });
    // Its impact read at first look, as the data manager's analysis left it.
    await runImpactAnalysis(db, dataManager.principal, input.studyId, id);
    if (!plan.publish) continue;
    await publishAmendment(db, dataManager.principal, dataManager.actor, input.studyId, id, {
      password: input.password,
    });
    // The sites' jobs whose approval is in effect, run to the end as the worker would.
    while (await runMigrationTurn(db, { today })) {}
  }
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
  for (const recoding of plan.renameCodes) {
    const list = next.codeLists.find((entry) => entry.key === recoding.codeList);
    if (!list) throw new Error(`demo-amendment.json: no code list ${recoding.codeList}`);
    for (const code of list.codes) code.code = recoding.map[code.code] ?? code.code;
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
