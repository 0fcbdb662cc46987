import type { LightMyRequestResponse } from 'fastify';

/**
 * What the two ability walks (ability-walk.test.ts, ability-walk-queries-and-pages.test.ts) share: the
 * refusals an ability said false must meet, the answer an allowed write must get, and where a hold of
 * each level is placed for a subject at a site.
 */

/** Not allowed (403), not visible (404), held (423). */
export const REFUSED = [403, 404, 423];

/** The answer an allowed write gets: a status, and the error code when only the data decides it. */
export const answered = (expected: number, code?: string) => (response: LightMyRequestResponse) =>
  response.statusCode === expected && (code === undefined || response.json().error?.code === code);

export type HoldLevel = 'form' | 'subject' | 'site' | 'study';

/** The hold target of a level for one subject at `siteId` (a form-level hold on `form`). */
export function holdTarget(
  level: HoldLevel,
  place: { siteId: number; subjectPk: number; form: { visitKey: string; formKey: string } },
) {
  if (level === 'study') return { level };
  if (level === 'site') return { level, siteId: place.siteId };
  if (level === 'subject') return { level, subjectPk: place.subjectPk };
  return { level, subjectPk: place.subjectPk, ...place.form };
}
