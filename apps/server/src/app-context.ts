import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';

/** What every route module may use: the parsed configuration and the database. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
}
