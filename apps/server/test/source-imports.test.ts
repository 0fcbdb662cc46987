import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server runs src/ as it is (Node strips the types), so whatever src/ imports ships and loads
// with it. Test helpers and checks live in test/ (issue 44 item 6); this keeps them there: a module
// of src/ that is not itself a test imports nothing from test/ and not vitest.

const serverDirectory = path.resolve(import.meta.dirname, '..');
const sourceDirectory = path.join(serverDirectory, 'src');
const testDirectory = path.join(serverDirectory, 'test');

/** `from '…'` of static imports and re-exports, and `import('…')`. */
const SPECIFIER = /\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g;

function sourceModules(): string[] {
  return fs
    .readdirSync(sourceDirectory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(sourceDirectory, file));
}

function testOnlyImportsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier === 'vitest' || specifier.startsWith('vitest/')) found.push(specifier);
    if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(file), specifier);
      if (target.startsWith(testDirectory + path.sep)) found.push(specifier);
    }
  }
  return found;
}

describe('src/ and test/', () => {
  it('finds the modules of src/ (the scan itself works)', () => {
    expect(sourceModules().length).toBeGreaterThan(100);
  });

  it('no module of src/ but a test imports test helpers or vitest', () => {
    const offenders = sourceModules()
      .map((file) => ({ file: path.relative(serverDirectory, file), imports: testOnlyImportsOf(file) }))
      .filter((entry) => entry.imports.length > 0);
    expect(offenders).toEqual([]);
  });

  it('keeps no *.checks.ts in src/ (they belong in test/demo-checks/)', () => {
    const checks = sourceModules().filter((file) => file.endsWith('.checks.ts'));
    expect(checks.map((file) => path.relative(serverDirectory, file))).toEqual([]);
  });
});
