import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SUBJECT_PLANS_FILE, demoSubjectPlans, readDemoSubjectPlans } from './demo-subject-plans.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-demo-plans-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** The real file with one change, written to a file of its own. */
function changedFile(name: string, change: (data: { subjects: Record<string, unknown>[] }) => void): string {
  const data = JSON.parse(fs.readFileSync(DEMO_SUBJECT_PLANS_FILE, 'utf8'));
  change(data);
  const file = path.join(workDir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('the demo subject plans file', () => {
  it('gives the 31 subjects with the common history and medication they name spelled out', () => {
    expect(demoSubjectPlans).toHaveLength(31);
    const first = demoSubjectPlans[0];
    expect(first?.history).toEqual([{ content: '고혈압', startedDaysBeforeScreening: 2900 }]);
    expect(first?.medication?.[0]?.drugName).toBe('Amlodipine');
  });

  it('refuses a mistyped key or value, saying where', () => {
    const typo = changedFile('typo', (data) => {
      const subject = data.subjects[2] as Record<string, unknown>;
      subject.wieghtKg = subject.weightKg;
      delete subject.weightKg;
      subject.healing = 'almost';
    });
    expect(() => readDemoSubjectPlans(typo)).toThrow(/typo\.json does not hold what the seed expects/);
    expect(() => readDemoSubjectPlans(typo)).toThrow(/subjects\[2\]\.weightKg/);
    expect(() => readDemoSubjectPlans(typo)).toThrow(/wieghtKg/);
    expect(() => readDemoSubjectPlans(typo)).toThrow(/subjects\[2\]\.healing/);
  });

  it('refuses a common entry it does not have', () => {
    const unknown = changedFile('unknown', (data) => {
      (data.subjects[0] as Record<string, unknown>).history = ['gout'];
    });
    expect(() => readDemoSubjectPlans(unknown)).toThrow(
      `${unknown}: subject 01-KMS's history names "gout", which is not a common one.`,
    );
  });
});
