import type { AmendmentImpactResponse, AmendmentImpactRowsResponse, ImpactKind } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { ImpactSummary } from '../amendment-impact/impact-rows.ts';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import { requireAmendment } from './amendment-rows.ts';
import { impactInputsHash } from './impact-inputs-hash.ts';
import { impactLabels } from './impact-labels.ts';

/**
 * `GET …/amendments/:amendmentId/impact`: the last impact analysis's counts (null: none yet), and
 * whether it is current — the draft's revision, the declarations and the sites' dates still those it read.
 */
export async function readImpact(
  db: Kysely<Database>,
  studyId: number,
  amendmentId: number,
): Promise<AmendmentImpactResponse> {
  const amendment = await requireAmendment(db, studyId, amendmentId);
  const impact = await db
    .selectFrom('amendment_impacts')
    .innerJoin('users', 'users.id', 'amendment_impacts.computed_by')
    .select([
      'amendment_impacts.draft_revision',
      'amendment_impacts.inputs_hash',
      'amendment_impacts.summary',
      'amendment_impacts.computed_at',
      'users.name',
    ])
    .where('amendment_impacts.amendment_id', '=', amendmentId)
    .executeTakeFirst();
  if (!impact) return { impact: null };
  const draft = amendment.status === 'draft' ? await designDraftRow(db, studyId) : undefined;
  const summary = impact.summary as ImpactSummary;
  return {
    impact: {
      computedAt: impact.computed_at.toISOString(),
      computedBy: impact.name,
      draftRevision: impact.draft_revision,
      current:
        draft?.revision === impact.draft_revision &&
        (await impactInputsHash(db, amendment)) === impact.inputs_hash,
      subjects: summary.subjects,
      byKind: summary.byKind,
    },
  };
}

/**
 * `GET …/impact/rows`: the last run's rows, filtered by kind, site and subject (screening number or
 * part of it), in the analysis's order (subject by subject), one page with the total in one statement;
 * visits, forms and items also by name in the reader's language.
 */
export async function readImpactRows(
  db: Kysely<Database>,
  studyId: number,
  amendmentId: number,
  query: { kind?: ImpactKind; siteId?: number; subject?: string; page: number; size: number },
  language: Language,
): Promise<AmendmentImpactRowsResponse> {
  await requireAmendment(db, studyId, amendmentId);
  const labels = await impactLabels(db, studyId, language);
  let rows = db
    .selectFrom('amendment_impact_rows as r')
    .innerJoin('sites', 'sites.id', 'r.site_id')
    .select([
      'r.subject_id',
      'r.screening_number',
      'sites.code as site',
      'r.visit_key',
      'r.form_key',
      'r.item_key',
      'r.kind',
      'r.before',
      'r.after',
      sql<number>`count(*) over ()`.as('total'),
    ])
    .where('r.amendment_id', '=', amendmentId);
  if (query.kind) rows = rows.where('r.kind', '=', query.kind);
  if (query.siteId !== undefined) rows = rows.where('r.site_id', '=', query.siteId);
  if (query.subject) rows = rows.where('r.screening_number', 'ilike', `%${escapeLike(query.subject)}%`);
  const page = await rows
    .orderBy('r.id')
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .execute();
  return {
    rows: page.map((row) => ({
      subjectPk: row.subject_id,
      subjectId: row.screening_number,
      site: row.site,
      visitKey: row.visit_key,
      formKey: row.form_key,
      itemKey: row.item_key,
      visit: labels.visit(row.visit_key),
      form: labels.form(row.form_key),
      item: labels.item(row.form_key, row.item_key),
      kind: row.kind as ImpactKind,
      before: row.before ?? null,
      after: row.after ?? null,
    })),
    total: Number(page[0]?.total ?? 0),
    page: query.page,
    size: query.size,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
