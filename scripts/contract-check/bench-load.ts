// `npm run bench:load`: mixed load at a fixed rate (default 200 requests/s for 10 minutes) against our
// reference server, which it starts (fresh demo clinic), or against `--url` with `--login` per role. Reads
// of lists and records as the three clinic roles, with writes among them (new patients, notification
// settings). Prints errors, p50/p99 latency and the server's memory (RSS) at start and end.
import autocannon, { type Request } from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseLogins } from './credentials';
import { DEMO_LOGINS, startReferenceServer, type ReferenceServer } from './reference-server';

/** Resident memory of a local process in MiB, from /proc (Linux) or `ps`; null when it cannot be read. */
function rssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;
    } catch {
      return null;
    }
  }
}

/** The launcher and every process below it (tsx runs the server in a child, which has helpers of its own). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    // pgrep exits 1 when there are none.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** The server's memory: resident memory summed over its process tree. */
function treeRssMiB(pid: number): number | null {
  const values = processTree(pid).map(rssMiB).filter((v): v is number => v !== null);
  return values.length ? values.reduce((a, b) => a + b, 0) : null;
}

async function json(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      login: { type: 'string', multiple: true, default: [] },
      duration: { type: 'string', default: '600' },
      rate: { type: 'string', default: '200' },
      // Enough connections that a slow answer does not hold back the rate (autocannon sends one request at a
      // time per connection).
      connections: { type: 'string', default: '64' },
      port: { type: 'string', default: '8099' },
    },
  });
  const duration = Number(values.duration);
  const rate = Number(values.rate);
  const connections = Number(values.connections);
  if (![duration, rate, connections].every((n) => Number.isInteger(n) && n > 0)) throw new Error('--duration, --rate and --connections must be whole numbers > 0');

  let server: ReferenceServer | null = null;
  try {
    let base = values.url?.replace(/\/$/, '');
    const logins = values.login.length ? parseLogins(values.login) : DEMO_LOGINS;
    if (!base) {
      server = await startReferenceServer(Number(values.port));
      base = server.url;
    }
    const api = `${base}/api`;
    const tokens: Record<string, string> = {};
    for (const [role, { email, password }] of Object.entries(logins)) {
      const answer = await json(`${api}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      const token = (answer.body as { data?: { token?: string } } | null)?.data?.token;
      if (answer.status !== 200 || !token) throw new Error(`sign-in as ${role} answered ${answer.status}`);
      tokens[role] = token;
    }
    const as = (role: string) => ({ authorization: `Bearer ${tokens[role]}`, accept: 'application/json' });
    const physician = 'clinic_physicians' in tokens ? 'clinic_physicians' : Object.keys(tokens)[0];
    const nurse = 'clinic_nurses' in tokens ? 'clinic_nurses' : physician;
    const admin = 'clinic_it_admins' in tokens ? 'clinic_it_admins' : physician;
    const patients = (await json(`${api}/patients?perPage=20`, { headers: as(physician) })).body as { data?: { id: string }[] } | null;
    const patientId = patients?.data?.[0]?.id;
    if (!patientId) throw new Error('no patient to read: the load needs at least one patient in the clinic');

    // One round of the mix: mostly reads, about one in five a write.
    const requests: Request[] = [
      { method: 'GET', path: '/api/patients?perPage=20', headers: as(physician) },
      { method: 'GET', path: '/api/user/profile', headers: as(nurse) },
      { method: 'GET', path: `/api/patients/${patientId}`, headers: as(physician) },
      { method: 'GET', path: `/api/patients/${patientId}/treatments`, headers: as(nurse) },
      { method: 'GET', path: '/api/notifications', headers: as(physician) },
      { method: 'GET', path: '/api/users?perPage=20', headers: as(admin) },
      { method: 'GET', path: '/api/patients?search=schneider', headers: as(nurse) },
      { method: 'GET', path: '/api/clinic/settings', headers: as(admin) },
      {
        method: 'POST',
        path: '/api/patients',
        headers: { ...as(physician), 'content-type': 'application/json' },
        // The same patient again and again: confirmed, or every write after the first is a likely duplicate (409).
        body: JSON.stringify({ name: 'Last', secondName: 'Tester', birthday: '1961-07-08', gender: 'male', confirmDuplicate: true }),
      },
      {
        method: 'POST',
        path: '/api/notifications/settings',
        headers: { ...as(nurse), 'content-type': 'application/json' },
        body: JSON.stringify({ system: true, teamMembers: false, patients: true, newsAndUpdates: false, notifyViaEmail: false }),
      },
    ];

    const pid = server?.pid ?? null;
    const rssStart = pid ? treeRssMiB(pid) : null;
    console.log(`Load: ${rate} requests/s for ${duration} s over ${connections} connections against ${base} (mix of ${requests.length} requests)`);
    const result = await autocannon({ url: base, connections, duration, overallRate: rate, timeout: 10, requests });
    const rssEnd = pid ? treeRssMiB(pid) : null;
    const mib = (v: number | null) => (v === null ? 'n/a (not a local server started by the benchmark)' : `${v.toFixed(0)} MiB`);
    const statuses = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code} ×${count}`).join(', ');
    const achieved = result.requests.total / result.duration;
    console.log(`requests: ${result.requests.total} in ${result.duration.toFixed(0)} s (${achieved.toFixed(1)}/s of ${rate}/s asked); statuses: ${statuses}`);
    if (achieved < rate * 0.95) console.log(`the server did not keep up: ${achieved.toFixed(1)} requests/s instead of ${rate}`);
    console.log(`errors: ${result.errors} (timeouts ${result.timeouts}), non-2xx: ${result.non2xx}`);
    console.log(`latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`server RSS (its process tree): start ${mib(rssStart)}, end ${mib(rssEnd)}`);
    return result.errors || result.non2xx ? 1 : 0;
  } finally {
    await server?.stop();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench:load: ${(error as Error).message}`);
  process.exitCode = 2;
}
