import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 50: a study's quality tolerance limits, one row per indicator it changed; an indicator
  // without a row uses the default (central-monitoring/tolerance-limits.ts).
  await db.schema
    .createTable('monitoring_limits')
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('warning', 'double precision', (col) => col.notNull())
    .addColumn('limit', 'double precision', (col) => col.notNull())
    .addColumn('direction', 'text', (col) => col.notNull().check(sql`direction in ('high', 'low')`))
    .addColumn('minimum_denominator', 'integer', (col) => col.notNull())
    .addColumn('updated_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('monitoring_limits_pk', ['study_id', 'key'])
    .execute();

  // The run of a study (one row per study): queued by a request or by data changed since the last
  // run, claimed with a lease by one process, its progress stored. `data_mark` is the study's newest
  // audit record id when the run started: newer records mean the results are stale.
  await db.schema
    .createTable('monitoring_runs')
    .addColumn('study_id', 'integer', (col) => col.primaryKey().references('studies.id'))
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('queued_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('requested_by', 'integer', (col) => col.references('users.id'))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('progress_done', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('progress_total', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('data_mark', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await sql`create index monitoring_runs_pending on monitoring_runs (queued_at) where state in ('queued', 'running')`.execute(
    db,
  );

  // Each day's last run's indicator values per site (site_id 0: the whole study): the newest day is
  // the current value, the days before it the trend.
  await db.schema
    .createTable('monitoring_indicator_days')
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('value', 'double precision')
    .addColumn('numerator', 'double precision', (col) => col.notNull())
    .addColumn('denominator', 'double precision', (col) => col.notNull())
    .addColumn('subjects', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('monitoring_indicator_days_pk', ['study_id', 'day', 'site_id', 'key'])
    .execute();

  // The signals found, kept across runs by their fingerprint with what a person did with them.
  await db.schema
    .createTable('monitoring_signals')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('strength', 'double precision', (col) => col.notNull())
    // Found by the newest run: false once a run no longer finds it (kept, not shown as active).
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('state', 'text', (col) =>
      col.notNull().defaultTo('open').check(sql`state in ('open', 'queried', 'noted', 'dismissed')`),
    )
    .addColumn('title', 'jsonb', (col) => col.notNull())
    .addColumn('explanation', 'jsonb', (col) => col.notNull())
    .addColumn('items', 'jsonb', (col) => col.notNull())
    .addColumn('subjects', 'jsonb', (col) => col.notNull())
    .addColumn('numbers', 'jsonb', (col) => col.notNull())
    .addColumn('chart', 'jsonb', (col) => col.notNull())
    .addColumn('resolution', 'jsonb')
    .addColumn('found_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index monitoring_signals_fingerprint on monitoring_signals (study_id, fingerprint)`.execute(
    db,
  );
  // The list and the panel: a study's signals by strength, narrowed by site.
  await sql`create index monitoring_signals_by_strength on monitoring_signals (study_id, strength desc, id)`.execute(
    db,
  );
  await sql`create index monitoring_signals_by_site on monitoring_signals (study_id, site_id, strength desc, id)`.execute(
    db,
  );
}
