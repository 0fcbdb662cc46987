import type { HoldKindValue, HoldLevel, HoldTarget as RequestedTarget } from '@cdms/contract';
import { getFormLayout } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { authorize } from '../auth/authorize.ts';
import { can, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isSiteOfStudy } from '../studies/site-of-study.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';

/**
 * The policy of placing and lifting a hold: the target must exist and be visible to the user (404
 * otherwise, as for any subject or site outside their sites), and the user must hold the right for
 * the kind where the target lies (403): a freeze needs `freeze.manage` (CRA on the sites they
 * monitor, DM), a lock `lock.manage` (DM). A study-wide hold needs the right over every site.
 */

/** A target as stored: the columns of `holds` and its one-text key. */
export interface ResolvedTarget {
  level: HoldLevel;
  studyId: number;
  siteId: number | null;
  subjectId: number | null;
  visitKey: string | null;
  formKey: string | null;
  /** 'study', 'site:3', 'subject:7', 'form:7:v2:vitalSigns' (see the holds migration). */
  targetKey: string;
}

export const HOLD_PERMISSION = { frozen: 'freeze.manage', locked: 'lock.manage' } as const;

type Executor = Kysely<Database> | Transaction<Database>;

export async function resolveHoldTarget(
  db: Executor,
  principal: Principal,
  studyId: number,
  kind: HoldKindValue,
  target: RequestedTarget,
): Promise<ResolvedTarget> {
  authorize(principal, 'member', { studyId });
  const action = HOLD_PERMISSION[kind];
  switch (target.level) {
    case 'study': {
      if (siteScope(principal, action, studyId) !== 'all') throw new AppError(403, 'forbidden');
      return studyTarget(studyId);
    }
    case 'site': {
      const { siteId } = target;
      if (
        !(await isSiteOfStudy(db, studyId, siteId)) ||
        !can(principal, 'subject.read', { studyId, siteId })
      ) {
        throw new AppError(404, 'not_found');
      }
      if (!can(principal, action, { studyId, siteId })) throw new AppError(403, 'forbidden');
      return siteTarget(studyId, siteId);
    }
    case 'subject': {
      const subject = await findSubjectInScope(db, principal, studyId, target.subjectPk, action);
      return subjectTargetOf(studyId, subject.site_id, subject.id);
    }
    case 'form': {
      const subject = await findSubjectInScope(db, principal, studyId, target.subjectPk, action);
      const current = await currentStudyDefinition(db, studyId);
      if (!current || !getFormLayout(current.definition, target.visitKey, target.formKey)) {
        throw new AppError(404, 'not_found');
      }
      await requireVisitOfSubject(db, subject.id, target.visitKey);
      return formTargetOf(studyId, subject.site_id, subject.id, target.visitKey, target.formKey);
    }
  }
}

export function studyTarget(studyId: number): ResolvedTarget {
  return {
    level: 'study',
    studyId,
    siteId: null,
    subjectId: null,
    visitKey: null,
    formKey: null,
    targetKey: 'study',
  };
}

export function siteTarget(studyId: number, siteId: number): ResolvedTarget {
  return {
    level: 'site',
    studyId,
    siteId,
    subjectId: null,
    visitKey: null,
    formKey: null,
    targetKey: `site:${siteId}`,
  };
}

export function subjectTargetOf(studyId: number, siteId: number, subjectId: number): ResolvedTarget {
  return {
    level: 'subject',
    studyId,
    siteId,
    subjectId,
    visitKey: null,
    formKey: null,
    targetKey: `subject:${subjectId}`,
  };
}

export function formTargetOf(
  studyId: number,
  siteId: number,
  subjectId: number,
  visitKey: string,
  formKey: string,
): ResolvedTarget {
  return {
    level: 'form',
    studyId,
    siteId,
    subjectId,
    visitKey,
    formKey,
    targetKey: `form:${subjectId}:${visitKey}:${formKey}`,
  };
}

/**
 * Takes the row locks of the subjects a hold covers — the subject of a subject's or form's hold, every
 * subject of a site's or the study's, in id order — so a hold never crosses a write: writes take their
 * subject's lock before they check the holds, so a write already past its check commits before the
 * hold is placed, and every later one sees it.
 */
export async function lockCoveredSubjects(trx: Transaction<Database>, target: ResolvedTarget): Promise<void> {
  if (target.subjectId === null) {
    let covered = trx
      .selectFrom('subjects')
      .select('id')
      .where('study_id', '=', target.studyId)
      .where('deleted_at', 'is', null);
    if (target.siteId !== null) covered = covered.where('site_id', '=', target.siteId);
    await covered.orderBy('id').forUpdate().execute();
    return;
  }
  await lockLiveSubject(trx, target.subjectId);
}

/** The hold of `kind` in force on exactly this target, locked for update, or undefined. */
export async function holdInForceOn(trx: Transaction<Database>, target: ResolvedTarget, kind: HoldKindValue) {
  return trx
    .selectFrom('holds')
    .selectAll()
    .where('study_id', '=', target.studyId)
    .where('kind', '=', kind)
    .where('target_key', '=', target.targetKey)
    .where('lifted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** One hold to place or lift: on what, of which kind, by whom, why, and when (default: now). */
export interface HoldChange {
  principal: Principal;
  actor: AuditActor;
  target: ResolvedTarget;
  kind: HoldKindValue;
  reason: string;
  at?: Date | undefined;
}

/**
 * What placing and lifting a requested hold share (place-hold.ts, lift-hold.ts): the target resolved
 * under the policy, then in one transaction the subjects it covers locked and `step` (the hold row
 * and its audit record) run. Answers the hold's id.
 */
export async function changeRequestedHold(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: { kind: HoldKindValue; target: RequestedTarget; reason: string },
  at: Date | undefined,
  step: (trx: Transaction<Database>, change: HoldChange) => Promise<number>,
): Promise<number> {
  const target = await resolveHoldTarget(db, principal, studyId, request.kind, request.target);
  return inTransaction(db, async (trx) => {
    await lockCoveredSubjects(trx, target);
    return step(trx, { principal, actor, target, kind: request.kind, reason: request.reason.trim(), at });
  });
}
