// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CHECK_CLASSES } from './checks';
import { abbreviateRuns } from './http-client';
import { distinctFailures, junitReport } from './report';
import type { Failure, OperationTally, RunResult } from './run';

const tally = (failed: number): OperationTally => ({
  requests: 3,
  checks: Object.fromEntries(CHECK_CLASSES.map((c) => [c, { passed: 3 - (c === 'not_a_server_error' ? failed : 0), failed: c === 'not_a_server_error' ? failed : 0 }])) as OperationTally['checks'],
});
const failure = (label: string): Failure => ({ operationId: 'signIn', check: 'not_a_server_error', message: 'answered 500', label, status: 500, curl: "curl -X POST '/api/sign-in'", answerExcerpt: '{"a":"<&>"}' });

describe('report', () => {
  it('groups the same answer of one operation into one distinct failure', () => {
    expect(distinctFailures([failure('a'), failure('b')])).toEqual([{ failure: failure('a'), count: 2 }]);
  });

  it('writes one JUnit testcase per operation and class, failures escaped', () => {
    const result: RunResult = { requests: 6, seconds: 1, tally: new Map([['signIn', tally(1)], ['logout', tally(0)]]), failures: [failure('x\u0000')], skipped: [], credentials: [], resources: '', stoppedEarly: null };
    const xml = junitReport(result);
    expect(xml.match(/<testcase /g)).toHaveLength(2 * CHECK_CLASSES.length);
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('&lt;&amp;&gt;');
    expect(xml).not.toContain('\u0000');
  });

  it("keeps a skipped operation's reason in JUnit", () => {
    const empty: OperationTally = { requests: 0, checks: Object.fromEntries(CHECK_CLASSES.map((c) => [c, { passed: 0, failed: 0 }])) as OperationTally['checks'] };
    const result: RunResult = { requests: 3, seconds: 1, tally: new Map([['signIn', tally(0)], ['logout', empty]]), failures: [], skipped: [{ operationId: 'logout', reason: 'ends our shared session <staging>' }], credentials: [], resources: '', stoppedEarly: null };
    const xml = junitReport(result);
    expect(xml.match(/<skipped message="operation skipped: ends our shared session &lt;staging&gt;"\/>/g)).toHaveLength(CHECK_CLASSES.length);
  });

  it('abbreviates long runs of one character', () => {
    expect(abbreviateRuns(`id=${'a'.repeat(8000)}&x`)).toBe('id=a{×8000}&x');
  });
});
