import type { Signal, SignalListResponse, signalListQuerySchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Database } from '../db/schema.ts';
import { presentSignal } from './signal-presenter.ts';

type ListQuery = z.output<typeof signalListQuerySchema>;

/** The signals base query: a study's, joined with their sites, within a scope of sites. */
export function signalsInScope(db: Kysely<Database>, studyId: number, scope: SiteScope) {
  let query = db
    .selectFrom('monitoring_signals as s')
    .innerJoin('sites', 'sites.id', 's.site_id')
    .where('s.study_id', '=', studyId);
  if (scope !== 'all') query = query.where('s.site_id', 'in', scope.size > 0 ? [...scope] : [-1]);
  return query;
}

/**
 * A page of the study's signals in the reader's scope, strongest first, filtered by site, kind and
 * state (`active`: found by the newest run and not dismissed) — filtered, counted and paged in SQL on
 * the index (study_id, strength desc, id).
 */
export async function listSignals(
  db: Kysely<Database>,
  studyId: number,
  scope: SiteScope,
  query: ListQuery,
): Promise<SignalListResponse> {
  let base = signalsInScope(db, studyId, scope);
  if (query.site !== undefined) base = base.where('s.site_id', '=', query.site);
  if (query.kind !== undefined) base = base.where('s.kind', '=', query.kind);
  if (query.state === 'active') base = base.where('s.active', '=', true).where('s.state', '<>', 'dismissed');
  else base = base.where('s.state', '=', query.state);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .selectAll('s')
      .select([
        'sites.code as site_code',
        'sites.name as site_name',
        'sites.institution_number as site_institution_number',
      ])
      .orderBy('s.strength', 'desc')
      .orderBy('s.id')
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute(),
  ]);
  return { items: rows.map(presentSignal), total: Number(count?.n ?? 0), page: query.page, size: query.size };
}

/** One stored signal as the API shows it (after an action; its scope was checked by the action). */
export async function readSignal(db: Kysely<Database>, studyId: number, signalId: number): Promise<Signal> {
  const row = await signalsInScope(db, studyId, 'all')
    .where('s.id', '=', signalId)
    .selectAll('s')
    .select([
      'sites.code as site_code',
      'sites.name as site_name',
      'sites.institution_number as site_institution_number',
    ])
    .executeTakeFirstOrThrow();
  return presentSignal(row);
}
