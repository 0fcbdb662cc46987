import type { HoldAbilities, HoldListResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { can, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isSiteOfStudy } from '../studies/site-of-study.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { holdsOverSubject, presentHolds } from './hold-presenter.ts';

/** The parsed query string (holdListQuerySchema). */
type ListQuery = { subjectPk?: number | undefined; siteId?: number | undefined };

/**
 * `GET /api/studies/:studyId/holds`: the freezes and locks in force over one subject (the study's,
 * its site's, its own and its forms'), over one site (the study's, the site's, and every hold inside
 * it), or over the reader's whole study; with what the reader may do there.
 */
export async function listHolds(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: ListQuery,
): Promise<HoldListResponse> {
  authorize(principal, 'member', { studyId });
  let ids: number[];
  let abilities: HoldAbilities;
  const inForce = db
    .selectFrom('holds')
    .select('id')
    .where('study_id', '=', studyId)
    .where('lifted_at', 'is', null)
    .orderBy('id');
  if (query.subjectPk !== undefined) {
    const subject = await findSubjectInScope(db, principal, studyId, query.subjectPk);
    return {
      holds: await holdsOverSubject(db, subject),
      abilities: holdAbilitiesAt(principal, studyId, subject.site_id),
    };
  }
  if (query.siteId !== undefined) {
    const siteId = query.siteId;
    const ofStudy = await isSiteOfStudy(db, studyId, siteId);
    if (!ofStudy || !can(principal, 'subject.read', { studyId, siteId }))
      throw new AppError(404, 'not_found');
    ids = (
      await inForce.where((eb) => eb.or([eb('level', '=', 'study'), eb('site_id', '=', siteId)])).execute()
    ).map((row) => row.id);
    abilities = holdAbilitiesAt(principal, studyId, siteId);
  } else {
    if (!can(principal, 'subject.read', { studyId })) throw new AppError(403, 'forbidden');
    const scope = siteScope(principal, 'subject.read', studyId);
    let everyHold = inForce;
    if (scope !== 'all') {
      const sites = [...scope];
      everyHold = everyHold.where((eb) =>
        sites.length === 0
          ? eb('level', '=', 'study')
          : eb.or([eb('level', '=', 'study'), eb('site_id', 'in', sites)]),
      );
    }
    ids = (await everyHold.execute()).map((row) => row.id);
    abilities = holdAbilitiesAt(principal, studyId);
  }
  return { holds: await presentHolds(db, ids), abilities };
}

/**
 * What the reader may do with holds at a site (or, without one, somewhere in the study): freeze and
 * unfreeze (CRA there, DM), lock and unlock (DM).
 */
export function holdAbilitiesAt(principal: Principal, studyId: number, siteId?: number): HoldAbilities {
  const scope = siteId === undefined ? { studyId } : { studyId, siteId };
  return { freeze: can(principal, 'freeze.manage', scope), lock: can(principal, 'lock.manage', scope) };
}
