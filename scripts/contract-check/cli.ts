// `npm run contract:check -- URL [options]`: the conformance check against any server of the contract.
// Without a URL, `--reference` starts our reference server (demo clinic, fresh data directory) and signs in
// with the demo accounts. Exits 1 on any failure, 2 on wrong usage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parseLogins, parseRolePairs } from './credentials';
import { DEMO_LOGINS, enrolDemoDevice, startReferenceServer, type ReferenceServer } from './reference-server';
import { junitReport, textReport } from './report';
import { runCheck } from './run';

/** The contract the bundled checker carries (scripts/build-contract-check.mjs); absent when run from the repository. */
declare const __CONTRACT_CHECK_EMBEDDED__: { gzip: string; name: string } | undefined;
const EMBEDDED = typeof __CONTRACT_CHECK_EMBEDDED__ === 'object' ? __CONTRACT_CHECK_EMBEDDED__ : null;

const USAGE = `Usage: npm run contract:check -- [URL] [options]
   or: node contract-check.mjs URL [options]   (the bundled checker: npm run build:contract-check)

  URL                       the server (e.g. http://127.0.0.1:8080); the contract's /api is added
  --reference               start our reference server instead (demo clinic, fresh data, port --port)
  --port N                  port for --reference (default 8096)
  --token role=TOKEN        a bearer token per role (repeatable)
  --login role=EMAIL:PASS   sign in per role through the contract's signIn operation (repeatable)
  --requests N              request budget (default 2000)
  --seed N                  seed of the random cases (default 1); same seed, same requests
  --concurrency N           requests in flight (default 4)
  --timeout-ms N            per request (default 15000)
  --max-seconds N           stop after this long (default 600)
  --skip opId=reason        leave an operation out, with the reason (repeatable; reported)
  --include SELECTOR        only these operations: tag:NAME, method:GET, operation:ID (repeatable)
  --exclude SELECTOR        leave these operations out (same selectors; repeatable)
  --soft-delete opId        a delete that keeps the resource readable: no 404 expected after it (repeatable)
  --read-only               only GET/HEAD/OPTIONS operations, no stateful flows (safe on shared servers)
  --junit FILE              JUnit XML (default contract-check-results.xml; "" for none)
  --contract FILE           bundled contract (default generated/openapi.yaml; the bundled checker
                            carries its own, ${EMBEDDED?.name ?? 'embedded when built'})`;

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        reference: { type: 'boolean', default: false },
        port: { type: 'string', default: '8096' },
        token: { type: 'string', multiple: true, default: [] },
        login: { type: 'string', multiple: true, default: [] },
        requests: { type: 'string', default: '2000' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '4' },
        'timeout-ms': { type: 'string', default: '15000' },
        'max-seconds': { type: 'string', default: '600' },
        skip: { type: 'string', multiple: true, default: [] },
        include: { type: 'string', multiple: true, default: [] },
        exclude: { type: 'string', multiple: true, default: [] },
        'read-only': { type: 'boolean', default: false },
        'soft-delete': { type: 'string', multiple: true, default: [] },
        junit: { type: 'string', default: 'contract-check-results.xml' },
        contract: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const number = (name: string, raw: string, min: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min} (got "${raw}")`);
    return n;
  };
  let server: ReferenceServer | null = null;
  try {
    if (!values.reference && positionals.length !== 1) throw new Error('give the server URL, or --reference');
    const tokens = parseRolePairs(values.token, '--token');
    const logins = parseLogins(values.login);
    const skip = parseRolePairs(values.skip, '--skip');
    const options = {
      requests: number('requests', values.requests, 1),
      seed: number('seed', values.seed, 0),
      concurrency: number('concurrency', values.concurrency, 1),
      timeoutMs: number('timeout-ms', values['timeout-ms'], 100),
      maxSeconds: number('max-seconds', values['max-seconds'], 1),
    };
    let url = positionals[0];
    let referenceProtected: string[] = [];
    if (values.reference) {
      server = await startReferenceServer(number('port', values.port, 1));
      url = server.url;
      const protectedIds: string[] = [];
      if (!Object.keys(tokens).length && !Object.keys(logins).length) {
        Object.assign(logins, DEMO_LOGINS);
        const device = await enrolDemoDevice(url);
        tokens.device = device.credential;
        protectedIds.push(device.id);
      }
      console.log(`Reference server on ${url} (pid ${server.pid})`);
      referenceProtected = protectedIds;
    }
    const result = await runCheck({ ...options, url, tokens, logins, skip, include: values.include, exclude: values.exclude, readOnly: values['read-only'], softDeletes: values['soft-delete'], protectedIds: referenceProtected, contractFile: values.contract ?? (EMBEDDED ? { text: gunzipSync(Buffer.from(EMBEDDED.gzip, 'base64')).toString('utf8') } : 'generated/openapi.yaml'), log: (line) => console.log(line) });
    console.log(textReport(result));
    if (values.junit) {
      mkdirSync(dirname(values.junit), { recursive: true });
      writeFileSync(values.junit, junitReport(result));
      console.log(`JUnit: ${values.junit}`);
    }
    return result.failures.length || result.stoppedEarly ? 1 : 0;
  } catch (error) {
    console.error(`contract-check: ${(error as Error).message}`);
    return 2;
  } finally {
    await server?.stop();
  }
}

process.exitCode = await main();
