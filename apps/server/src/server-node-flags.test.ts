import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from './server-node-flags.ts';

describe('the server’s Node flags', () => {
  it('are the ones `npm run serve` (and so `npm start`) passes, with its environment', () => {
    const packageJson = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    const serve = packageJson.scripts.serve ?? '';
    const environment = Object.entries(SERVER_ENVIRONMENT)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    expect(serve).toBe(`${environment} node ${SERVER_NODE_FLAGS.join(' ')} apps/server/src/main.ts`);
  });
});
