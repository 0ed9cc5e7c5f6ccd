// @vitest-environment node
//
// The conformance check as CI runs it: `npm run contract:check` against the reference server (demo clinic,
// PGlite, fresh data directory), bounded to 2,000 requests with a fixed seed. Any failure in any class
// fails this test; the message is the check's own report with a curl line per distinct failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS, enrolDemoDevice, startReferenceServer, type ReferenceServer } from '../../scripts/contract-check/reference-server';
import { junitReport, textReport } from '../../scripts/contract-check/report';
import { runCheck } from '../../scripts/contract-check/run';

const PORT = 8098;
const REQUESTS = 2000;

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer(PORT);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('contract check against the reference server', () => {
  it(`finds no failure in ${REQUESTS} requests`, async () => {
    // A laser of the demo clinic, enrolled, for the `device` operations (issue 29).
    const device = await enrolDemoDevice(server.url);
    const result = await runCheck({
      url: server.url,
      contractFile: join(process.cwd(), 'generated/openapi.yaml'),
      seed: 1,
      requests: REQUESTS,
      concurrency: 4,
      timeoutMs: 15_000,
      maxSeconds: 150,
      tokens: { device: device.credential },
      protectedIds: [device.id],
      logins: { ...DEMO_LOGINS },
      skip: {},
      log: () => {},
    });
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'contract-check.xml'), junitReport(result));
    expect(result.stoppedEarly).toBeNull();
    expect(result.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(result.credentials.sort()).toEqual(['clinic_it_admins', 'clinic_nurses', 'clinic_physicians', 'device']);
    expect(result.failures.length, textReport(result)).toBe(0);
  }, 200_000);
});
