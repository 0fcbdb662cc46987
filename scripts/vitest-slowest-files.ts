import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many files the closing list names. */
const LISTED = 20;

/**
 * A Vitest reporter that ends the run with its 20 slowest test files: where the time of the unit
 * and database tests goes, printed into CI's log (docs/TESTING.md). A file's time is its import and
 * set-up plus its tests and hooks, as Vitest measured them in the worker that ran it.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const root = process.cwd();
    const files = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const setUp =
        diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration;
      return {
        name: `${module.project.name}: ${path.relative(root, module.moduleId)}`,
        seconds: (setUp + diagnostic.collectDuration + diagnostic.duration) / 1000,
        tests: [...module.children.allTests()].length,
      };
    });
    files.sort((a, b) => b.seconds - a.seconds);
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    console.log(
      `\nThe ${Math.min(LISTED, files.length)} slowest of ${files.length} test files (seconds in a worker; ${total.toFixed(0)} s in all):`,
    );
    for (const file of files.slice(0, LISTED)) {
      console.log(
        `${file.seconds.toFixed(1).padStart(8)}  ${String(file.tests).padStart(4)} tests  ${file.name}`,
      );
    }
  }
}
