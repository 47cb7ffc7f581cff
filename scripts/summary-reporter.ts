import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary lists. */
const SLOWEST = 12;

/**
 * Prints the slowest test files (import plus tests, in seconds: where CI's time goes), then
 * `N passed, N failed, N skipped` as the last line of a run, the form CI reads.
 * A test file that fails to load counts as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      const tests = [...mod.children.allTests()];
      if (mod.state() === 'failed' && tests.length === 0) failed++;
      for (const t of tests) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    failed += unhandledErrors.length;
    if (testModules.length > 1) {
      const times = testModules.map((mod) => {
        const d = mod.diagnostic();
        return { id: mod.moduleId, s: (d.collectDuration + d.duration) / 1000 };
      });
      times.sort((a, b) => b.s - a.s);
      const total = times.reduce((sum, t) => sum + t.s, 0);
      const lines = times.slice(0, SLOWEST).map((t) => `  ${t.s.toFixed(1).padStart(7)} s  ${t.id.replace(`${process.cwd()}/`, '')}`);
      process.stdout.write(`\nslowest test files (import + tests; ${total.toFixed(0)} s over ${times.length} files, run in parallel):\n${lines.join('\n')}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
