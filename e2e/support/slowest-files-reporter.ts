import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** How many files the closing list names. */
const LISTED = 20;

/**
 * A Playwright reporter that ends the run with its 20 slowest spec files: the time of every run of
 * their tests (retries included, fixtures and hooks inside), printed into CI's log (docs/TESTING.md).
 */
export default class SlowestFilesReporter implements Reporter {
  private readonly files = new Map<string, { milliseconds: number; tests: Set<string> }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(process.cwd(), test.location.file);
    const entry = this.files.get(file) ?? { milliseconds: 0, tests: new Set<string>() };
    entry.milliseconds += result.duration;
    entry.tests.add(test.id);
    this.files.set(file, entry);
  }

  onEnd(): void {
    const files = [...this.files].sort(([, a], [, b]) => b.milliseconds - a.milliseconds);
    const total = files.reduce((sum, [, entry]) => sum + entry.milliseconds, 0) / 1000;
    console.log(
      `\nThe ${Math.min(LISTED, files.length)} slowest of ${files.length} spec files (seconds of test time; ${total.toFixed(0)} s in all):`,
    );
    for (const [file, entry] of files.slice(0, LISTED)) {
      console.log(
        `${(entry.milliseconds / 1000).toFixed(1).padStart(8)}  ${String(entry.tests.size).padStart(4)} tests  ${file}`,
      );
    }
  }

  printsToStdio(): boolean {
    return true;
  }
}
