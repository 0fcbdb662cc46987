// `npm test`: every test, in the order the README gives — build the web app, the unit and database
// tests (Vitest), then the end-to-end tests (Playwright). Each part's seconds are printed when it
// ends and, when CDMS_PHASE_LOG names a file, appended to it as "<name>\t<seconds>\t<exit code>"
// for the closing table of .ci/run. It stops at the first part that fails, with its exit code.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const parts = [
  { name: 'build', script: 'build' },
  { name: 'unit+db', script: 'test:unit' },
  { name: 'e2e', script: 'test:e2e' },
];

for (const part of parts) {
  const started = Date.now();
  const { status, signal } = spawnSync('npm', ['run', part.script], { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  const code = status ?? (signal ? 1 : 0);
  console.log(`== npm test: ${part.name} took ${seconds} s (exit ${code})`);
  if (process.env.CDMS_PHASE_LOG) {
    fs.appendFileSync(process.env.CDMS_PHASE_LOG, `${part.name}\t${seconds}\t${code}\n`);
  }
  if (code !== 0) process.exit(code);
}
