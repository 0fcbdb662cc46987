import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const preflight = require('./check-node-version.cjs') as {
  atLeast(have: number[], need: number[]): boolean;
  parts(version: string): number[];
  refusal(have: string, need: string): string;
  wanted: string;
};
const root = path.resolve(import.meta.dirname, '..');

describe('the Node.js preflight', () => {
  it('asks for the version package.json names, which .nvmrc and .node-version name too', () => {
    const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(`>=${preflight.wanted}`).toBe(packageJson.engines.node);
    const major = preflight.wanted.split('.')[0];
    expect(fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()).toBe(major);
    expect(fs.readFileSync(path.join(root, '.node-version'), 'utf8').trim()).toBe(major);
  });

  it('compares versions part by part', () => {
    const need = preflight.parts('22.18');
    expect(preflight.atLeast(preflight.parts('20.20.2'), need)).toBe(false);
    expect(preflight.atLeast(preflight.parts('22.9.0'), need)).toBe(false);
    expect(preflight.atLeast(preflight.parts('22.17.1'), need)).toBe(false);
    expect(preflight.atLeast(preflight.parts('22.18.0'), need)).toBe(true);
    expect(preflight.atLeast(preflight.parts('22.20.0'), need)).toBe(true);
    expect(preflight.atLeast(preflight.parts('24.0.0'), need)).toBe(true);
  });

  it('tells an older Node which version is needed and how to get it, in Korean and English', () => {
    const message = preflight.refusal('20.20.2', '22.18');
    expect(message).toContain('CDMS needs Node.js 22.18 or newer; this is Node.js 20.20.2.');
    expect(message).toContain('Node.js 22.18 이상이 필요합니다');
    expect(message).toContain('nvm install');
    expect(message).toContain('.nvmrc');
  });

  it('runs before every command a newcomer types first, and passes on this Node', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const command of ['preinstall', 'prestart', 'preserve', 'pretest', 'precdms']) {
      expect(scripts[command], command).toBe('node scripts/check-node-version.cjs');
    }
    const run = spawnSync(process.execPath, ['scripts/check-node-version.cjs'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
  });
});
