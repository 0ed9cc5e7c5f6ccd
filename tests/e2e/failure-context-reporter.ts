import { readFile } from 'node:fs/promises';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** The longest page snapshot printed per failure: CI keeps only the end of its log. */
const SNAPSHOT_MAX_CHARS = 6000;

type Failure = { title: string; attempt: number; snapshotPath?: string };

/**
 * After the run, prints each failed attempt's page snapshot (Playwright's error-context.md: the page's
 * accessibility tree when the expectation gave up), failures retried into a pass included. CI keeps the
 * log but not test-results/, and a journey that fails once in many runs cannot be explained without
 * what the page showed.
 */
export default class FailureContextReporter implements Reporter {
  private readonly failures: Failure[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === 'passed' || result.status === 'skipped') return;
    this.failures.push({
      title: test.titlePath().filter(Boolean).join(' › '),
      attempt: result.retry + 1,
      snapshotPath: result.attachments.find((attachment) => attachment.name === 'error-context')?.path,
    });
  }

  async onEnd() {
    for (const failure of this.failures) {
      console.log(`\n--- what the page showed when attempt ${failure.attempt} failed: ${failure.title}`);
      if (!failure.snapshotPath) {
        console.log('(no page snapshot)');
        continue;
      }
      const context = await readFile(failure.snapshotPath, 'utf8').catch(() => '(the snapshot file is gone)');
      // The file also repeats the error and the test's source, which the list reporter has shown already.
      const yaml = [...context.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1].trimEnd());
      const snapshot = yaml.length ? yaml.join('\n\n') : context;
      console.log(snapshot.length > SNAPSHOT_MAX_CHARS ? `${snapshot.slice(0, SNAPSHOT_MAX_CHARS)}\n… (${snapshot.length} characters)` : snapshot);
    }
  }

  printsToStdio() {
    return false;
  }
}
