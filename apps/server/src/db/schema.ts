import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. One interface per table; the migrations in
 * ./migrations are the source of truth and this file mirrors them.
 */
export interface Database {
  app_meta: AppMetaTable;
}

/** Facts about this installation, written once (installation id, when it was created). */
export interface AppMetaTable {
  key: string;
  value: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export type { Generated };
