// The run as people and CI read it: a per-operation table with counts per class, the distinct failures
// with a curl reproduction, and JUnit XML (one testcase per operation × class).
import { CHECK_CLASSES } from './checks';
import type { Failure, RunResult } from './run';

const SHORT: Record<string, string> = {
  not_a_server_error: '5xx',
  status_code_conformance: 'status',
  content_type_conformance: 'type',
  response_schema_conformance: 'schema',
  negative_data_rejection: 'negative',
  missing_auth: 'no-auth',
  ignored_auth: 'roles',
  response_headers_conformance: 'headers',
  unknown_resource: 'unknown',
  ensure_resource_availability: 'available',
  round_trip: 'trip',
  use_after_free: 'deleted',
};

/** Failures grouped by operation, class and message: one line per distinct defect, with a count. */
export function distinctFailures(failures: Failure[]): { failure: Failure; count: number }[] {
  const groups = new Map<string, { failure: Failure; count: number }>();
  for (const failure of failures) {
    // The request shape differs from case to case; the same answer to the same operation is one defect.
    const key = `${failure.operationId}|${failure.check}|${failure.message}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { failure, count: 1 });
  }
  return [...groups.values()];
}

export function textReport(result: RunResult): string {
  const lines: string[] = [];
  const header = ['operation'.padEnd(28), 'requests'.padStart(8), ...CHECK_CLASSES.map((c) => SHORT[c].padStart(10))].join(' ');
  lines.push(header, '-'.repeat(header.length));
  const totals = Object.fromEntries(CHECK_CLASSES.map((c) => [c, { passed: 0, failed: 0 }]));
  for (const [operationId, tally] of result.tally) {
    if (!tally.requests) continue;
    const cells = CHECK_CLASSES.map((c) => {
      const { passed, failed } = tally.checks[c];
      totals[c].passed += passed;
      totals[c].failed += failed;
      return (passed + failed === 0 ? '-' : failed ? `${failed}✗/${passed + failed}` : `${passed + failed}`).padStart(10);
    });
    lines.push([operationId.padEnd(28), String(tally.requests).padStart(8), ...cells].join(' '));
  }
  lines.push('-'.repeat(header.length));
  lines.push(['total'.padEnd(28), String(result.requests).padStart(8), ...CHECK_CLASSES.map((c) => `${totals[c].failed}✗/${totals[c].passed + totals[c].failed}`.padStart(10))].join(' '));
  lines.push('', `Columns: ${CHECK_CLASSES.map((c) => `${SHORT[c]} = ${c}`).join(', ')}; "n" checks passed, "f✗/n" f of n failed.`);
  lines.push(`${result.requests} requests in ${result.seconds.toFixed(1)} s as ${result.credentials.join(', ') || 'no role'}. Resources: ${result.resources}.`);
  if (result.stoppedEarly) lines.push(`Stopped early: ${result.stoppedEarly}.`);
  for (const s of result.skipped) lines.push(`Skipped ${s.operationId}: ${s.reason}`);
  const distinct = distinctFailures(result.failures);
  if (distinct.length) {
    lines.push('', `${result.failures.length} failed checks, ${distinct.length} distinct:`);
    for (const { failure, count } of distinct) {
      lines.push('', `✗ ${failure.operationId} · ${failure.check} · ${failure.message} · ${failure.label}${count > 1 ? ` (×${count})` : ''}`);
      lines.push(`  ${failure.curl}`);
      if (failure.answerExcerpt) lines.push(`  → ${failure.status} ${failure.answerExcerpt.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  } else lines.push('', 'No failures.');
  return lines.join('\n');
}

const xml = (text: string) =>
  text
    // XML 1.0 has no way to write most control characters: they become "?".
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '?')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '?')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function junitReport(result: RunResult): string {
  const cases: string[] = [];
  let failed = 0;
  let skippedCount = 0;
  const skipReasons = new Map(result.skipped.map((s) => [s.operationId, s.reason]));
  for (const [operationId, tally] of result.tally) {
    for (const check of CHECK_CLASSES) {
      const { passed, failed: failedChecks } = tally.checks[check];
      const own = result.failures.filter((f) => f.operationId === operationId && f.check === check);
      let body = '';
      if (failedChecks) {
        failed++;
        const details = distinctFailures(own).map(({ failure, count }) => `${failure.message} · ${failure.label}${count > 1 ? ` (×${count})` : ''}\n${failure.curl}\n→ ${failure.status} ${failure.answerExcerpt.slice(0, 300)}`);
        body = `<failure message="${xml(`${failedChecks} of ${passed + failedChecks} ${check} checks failed`)}">${xml(details.join('\n\n'))}</failure>`;
      } else if (!passed) {
        skippedCount++;
        // An operation left out says why (--skip's reason, --include/--exclude, --read-only).
        const reason = skipReasons.has(operationId) && !tally.requests ? `operation skipped: ${skipReasons.get(operationId)}` : 'no request of this operation applied this check';
        body = `<skipped message="${xml(reason)}"/>`;
      }
      cases.push(`    <testcase classname="${xml(operationId)}" name="${check}" assertions="${passed + failedChecks}">${body}</testcase>`);
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract-check" tests="${cases.length}" failures="${failed}" skipped="${skippedCount}" time="${result.seconds.toFixed(1)}">`,
    `  <testsuite name="contract-check" tests="${cases.length}" failures="${failed}" skipped="${skippedCount}" time="${result.seconds.toFixed(1)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
