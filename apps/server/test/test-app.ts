import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import type { App } from '../src/http/types.ts';

/** An in-process server over a test database; requests go through `app.inject`, no port. */
export async function buildTestApp(database: DatabaseHandle, env: Record<string, string> = {}): Promise<App> {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  return buildApp({ config, database });
}
