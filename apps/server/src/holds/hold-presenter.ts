import type { HoldInForce, LiftedHold } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database, HoldRow } from '../db/schema.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Holds as the API shows them: with the site's code, the subject's number and the people's names. */
function presentableHolds(executor: Executor) {
  return executor
    .selectFrom('holds')
    .leftJoin('sites', 'sites.id', 'holds.site_id')
    .leftJoin('subjects', 'subjects.id', 'holds.subject_id')
    .innerJoin('users as placer', 'placer.id', 'holds.placed_by')
    .leftJoin('users as lifter', 'lifter.id', 'holds.lifted_by')
    .selectAll('holds')
    .select([
      'sites.code as site_code',
      'subjects.screening_number',
      'placer.name as placed_by_name',
      'lifter.name as lifted_by_name',
    ])
    .orderBy('holds.id');
}

export async function presentHolds(executor: Executor, ids: number[]): Promise<LiftedHoldOrInForce[]> {
  if (ids.length === 0) return [];
  const rows = await presentableHolds(executor).where('holds.id', 'in', ids).execute();
  return rows.map((row) => presentHold(row));
}

type LiftedHoldOrInForce = HoldInForce & Partial<Pick<LiftedHold, 'liftedBy' | 'liftedAt' | 'liftReason'>>;

/** A hold's row with the site's code, the subject's number and the people's names. */
export type PresentableHold = HoldRow & {
  site_code: string | null;
  screening_number: string | null;
  placed_by_name: string;
  lifted_by_name: string | null;
};

export function presentHold(row: PresentableHold): LiftedHoldOrInForce {
  const hold: LiftedHoldOrInForce = {
    id: row.id,
    kind: row.kind,
    level: row.level,
    siteId: row.site_id,
    site: row.site_code,
    subjectPk: row.subject_id,
    subjectId: row.screening_number,
    visitKey: row.visit_key,
    formKey: row.form_key,
    placedBy: { userId: row.placed_by, name: row.placed_by_name },
    placedAt: row.placed_at.toISOString(),
    reason: row.placed_reason,
  };
  if (row.lifted_at !== null && row.lifted_by !== null) {
    hold.liftedBy = { userId: row.lifted_by, name: row.lifted_by_name ?? '' };
    hold.liftedAt = row.lifted_at.toISOString();
    hold.liftReason = row.lifted_reason ?? '';
  }
  return hold;
}

export async function presentHoldById(executor: Executor, id: number): Promise<LiftedHoldOrInForce> {
  const [hold] = await presentHolds(executor, [id]);
  if (!hold) throw new Error(`hold ${id} not found`);
  return hold;
}

/**
 * The holds in force over the subject (the study's, its site's, its own and its forms'), as a query
 * to run or to nest in the caller's statement (`jsonArrayFrom`).
 */
export function holdsOverSubjectQuery(
  executor: Executor,
  subject: Pick<SubjectWithSite, 'id' | 'study_id' | 'site_id'>,
) {
  return presentableHolds(executor)
    .where('holds.study_id', '=', subject.study_id)
    .where('holds.lifted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('holds.level', '=', 'study'),
        eb.and([eb('holds.level', '=', 'site'), eb('holds.site_id', '=', subject.site_id)]),
        eb('holds.subject_id', '=', subject.id),
      ]),
    );
}

/** The holds in force over the subject: the study's, its site's, its own and its forms'. */
export async function holdsOverSubject(
  db: Kysely<Database>,
  subject: SubjectWithSite,
): Promise<HoldInForce[]> {
  const rows = await holdsOverSubjectQuery(db, subject).execute();
  return rows.map((row) => presentHold(row));
}
