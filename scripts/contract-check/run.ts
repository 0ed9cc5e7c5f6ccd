// One conformance run: sign in per role, discover real resources, then send the cases of every operation
// in phases (safe operations, destructive ones, then those that can end the check's own sessions), each
// answer judged in every class. Bounded by a request count, a per-request timeout and a wall-clock limit.
import { CaseBuilder, type Case } from './cases';
import { CHECK_CLASSES, createResponseValidator, judge, type Answer, type CheckClass, type CheckResult } from './checks';
import { loadContract, type Operation } from './contract';
import { findString, signInOperation, type Credential, type CredentialOptions } from './credentials';
import { abbreviateRuns, curlOf, send, type RawRequest } from './http-client';
import { createRequestValidity } from './request-validity';
import { ResourcePool } from './resources';
import { findFlows, runFlow } from './stateful';

export interface RunOptions extends CredentialOptions {
  url: string;
  /** The bundled contract: a file, or its text. */
  contractFile: string | { text: string };
  seed: number;
  requests: number;
  concurrency: number;
  timeoutMs: number;
  maxSeconds: number;
  /** operationIds to leave out, each with the reason (counted and reported). */
  skip: Record<string, string>;
  /** Selectors (`tag:NAME`, `method:GET`, `operation:ID` or a bare operationId): only operations matching one. */
  include?: string[];
  /** Selectors of operations to leave out. */
  exclude?: string[];
  /** Only operations that cannot change data (GET, HEAD, OPTIONS); no stateful flows. Sign-ins still happen. */
  readOnly?: boolean;
  /** Delete operations that keep the resource readable, besides those the contract marks `x-soft-delete`. */
  softDeletes?: string[];
  /** Ids the destructive phases leave alone (e.g. the device whose credential is among the tokens). */
  protectedIds?: string[];
  log: (line: string) => void;
}

export interface Failure {
  operationId: string;
  check: CheckClass | 'transport';
  message: string;
  label: string;
  status: number | null;
  curl: string;
  answerExcerpt: string;
}

export interface OperationTally {
  requests: number;
  checks: Record<CheckClass, { passed: number; failed: number }>;
}

export interface RunResult {
  requests: number;
  seconds: number;
  tally: Map<string, OperationTally>;
  failures: Failure[];
  skipped: { operationId: string; reason: string }[];
  credentials: string[];
  resources: string;
  stoppedEarly: string | null;
}

/** Operations that destroy or change data other cases read: sent after all the others. */
export const DESTRUCTIVE = new Set(['deleteUsers', 'deleteUser', 'bulkUpdateUsers', 'updateUser', 'deletePatients', 'deletePatient', 'bulkUpdatePatients', 'requestPatientDeletion', 'deleteTreatment', 'deleteNotifications']);
/** Operations that can end or lock the check's own sessions (sign-out, password and security settings): last of all. */
export const SESSION_ENDING = new Set(['changePassword', 'updateProfile', 'forceResetPassword', 'stopRenewPassword', 'updateClinicSettings', 'logout']);

/** Labels of the mutations that found defects before: kept even when a small budget must leave cases out. */
const PRIORITY = /prototype|__proto__|constructor|toString|Content-Type|multipart|JSON|UTF-8|%ff|empty body|twice|huge|very long/;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether an operation matches a selector: `tag:NAME`, `method:GET`, `operation:ID` or a bare operationId. */
export function matches(operation: Operation, selector: string): boolean {
  const colon = selector.indexOf(':');
  const [kind, value] = colon > 0 ? [selector.slice(0, colon), selector.slice(colon + 1)] : ['operation', selector];
  switch (kind) {
    case 'tag':
      return operation.tags.some((tag) => tag.toLowerCase() === value.toLowerCase());
    case 'method':
      return operation.method === value.toUpperCase();
    case 'operation':
      return operation.operationId === value;
    default:
      throw new Error(`unknown selector "${selector}": use tag:NAME, method:GET or operation:ID`);
  }
}

/** The operations a run walks, and those it leaves out with the reason: --skip, --include, --exclude, --read-only. */
export function selectOperations(
  operations: Operation[],
  { skip = {}, include = [], exclude = [], readOnly = false }: Pick<RunOptions, 'skip' | 'include' | 'exclude' | 'readOnly'>,
): { selected: Operation[]; skipped: { operationId: string; reason: string }[] } {
  for (const selector of [...include, ...exclude]) {
    if (!operations.some((o) => matches(o, selector))) throw new Error(`no operation of the contract matches "${selector}"`);
  }
  const selected: Operation[] = [];
  const skipped: { operationId: string; reason: string }[] = [];
  for (const operation of operations) {
    const excludedBy = exclude.find((selector) => matches(operation, selector));
    let reason: string | null = null;
    if (operation.operationId in skip) reason = skip[operation.operationId];
    else if (include.length && !include.some((selector) => matches(operation, selector))) reason = `not included (--include ${include.join(', ')})`;
    else if (excludedBy) reason = `excluded (--exclude ${excludedBy})`;
    else if (readOnly && !READ_METHODS.has(operation.method)) reason = `--read-only: ${operation.method} can change data`;
    if (reason) skipped.push({ operationId: operation.operationId, reason });
    else selected.push(operation);
  }
  return { selected, skipped };
}

function phaseOf(operation: Operation): number {
  if (operation.operationId === 'logout') return 3;
  if (SESSION_ENDING.has(operation.operationId)) return 2;
  if (DESTRUCTIVE.has(operation.operationId) || operation.method === 'DELETE') return 1;
  return 0;
}

/**
 * Up to `quota` cases: the first valid request and the unknown id first, then the other valid and auth cases,
 * the priority mutations, the rest evenly spaced. (The run does not pass the x-roles matrix through here: it
 * sends every auth case whatever the budget.)
 */
export function chooseCases(cases: Case[], quota: number): Case[] {
  if (cases.length <= quota) return cases;
  const firstValid = cases.find((c) => c.kind === 'valid');
  const rank = (c: Case) =>
    c === firstValid || c.expectation === 'absent' ? 0 : c.kind === 'valid' && !c.label.includes(':') && !c.label.startsWith('random') ? 1 : c.kind === 'auth' ? 2 : PRIORITY.test(c.label) ? 3 : 4;
  const groups = [0, 1, 2, 3, 4].map((r) => cases.filter((c) => rank(c) === r));
  const chosen: Case[] = [];
  for (const group of groups) {
    const room = quota - chosen.length;
    if (room <= 0) break;
    if (group.length <= room) chosen.push(...group);
    else for (let i = 0; i < room; i++) chosen.push(group[Math.floor((i * group.length) / room)]);
  }
  return chosen;
}

function emptyTally(): OperationTally {
  return { requests: 0, checks: Object.fromEntries(CHECK_CLASSES.map((c) => [c, { passed: 0, failed: 0 }])) as OperationTally['checks'] };
}

export async function runCheck(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const deadline = started + options.maxSeconds * 1000;
  const contract = loadContract(options.contractFile);
  const base = new URL(options.url);
  // The URL is the server; the contract's server path (`/api`) is added unless the URL already ends with it.
  if (contract.basePath && !base.pathname.replace(/\/$/, '').endsWith(contract.basePath)) base.pathname = base.pathname.replace(/\/$/, '') + contract.basePath;
  const validatorFor = createResponseValidator(contract);
  const headerValidatorFor = createResponseValidator(contract, true);
  const validity = createRequestValidity(contract.document);
  const pool = new ResourcePool(contract.operations, contract.basePath);
  const tally = new Map<string, OperationTally>(contract.operations.map((o) => [o.operationId, emptyTally()]));
  const failures: Failure[] = [];
  const skipped: RunResult['skipped'] = [];
  let requests = 0;
  let stoppedEarly: string | null = null;

  const credentials = new Map<string, Credential>();
  // Reproductions show the headers as sent, the real tokens as $TOKEN.
  const secrets = () => [...credentials.values()].map((c) => c.token);
  const record = (operation: Operation, label: string, request: RawRequest, status: number | null, results: CheckResult[], excerpt: string) => {
    const entry = tally.get(operation.operationId)!;
    entry.requests++;
    for (const result of results) {
      if (result.check === ('transport' as CheckClass)) continue;
      entry.checks[result.check][result.ok ? 'passed' : 'failed']++;
      if (!result.ok) failures.push({ operationId: operation.operationId, check: result.check, message: result.message ?? '', label, status, curl: curlOf(base, request, secrets()), answerExcerpt: excerpt });
    }
  };

  const execute = async (c: Case, extra?: (answer: Answer, parsed: unknown) => CheckResult[]): Promise<{ status: number; parsed: unknown } | null> => {
    const headers = { ...c.request.headers };
    if ('role' in c.auth) {
      const credential = credentials.get(c.auth.role);
      if (credential) headers.authorization = `Bearer ${credential.token}`;
    } else if ('header' in c.auth) headers.authorization = c.auth.header;
    const request = { ...c.request, headers };
    requests++;
    const sent = await send(base, request, options.timeoutMs);
    if (!sent.answer) {
      // No answer at all (reset or stalled past the timeout) is a server failure as a client sees it.
      record(c.operation, c.label, request, null, [{ check: 'not_a_server_error', ok: false, message: `no answer: ${sent.error}` }], '');
      return null;
    }
    const results = judge(c.operation, c.expectation, sent.answer, validatorFor, headerValidatorFor);
    // Binary answers (images, parameter sets) are named, not printed.
    const textual = /json|text|xml/.test(sent.answer.contentType);
    const text = textual ? abbreviateRuns(sent.answer.body.subarray(0, 9000).toString('utf8')).slice(0, 400) : `<${sent.answer.body.length} bytes of ${sent.answer.contentType || 'no content type'}>`;
    let parsed: unknown;
    if (sent.answer.contentType.includes('json')) {
      try {
        parsed = JSON.parse(sent.answer.body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      pool.harvest(c.operation, sent.answer.status, parsed);
    }
    if (extra) results.push(...extra(sent.answer, parsed));
    record(c.operation, `${c.label} (as ${'role' in c.auth ? c.auth.role : 'none' in c.auth ? 'no credentials' : c.auth.header.split(' ')[0]})`, request, sent.answer.status, results, text);
    return { status: sent.answer.status, parsed };
  };

  const runAll = async (cases: Case[], concurrency: number) => {
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        if (Date.now() > deadline) {
          stoppedEarly = `stopped after ${options.maxSeconds} s (--max-seconds)`;
          return;
        }
        await execute(cases[next++]);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  for (const id of options.protectedIds ?? []) pool.protectedIds.add(id);
  // 1. Credentials: tokens as given, sign-ins once per role.
  for (const [role, token] of Object.entries(options.tokens)) credentials.set(role, { role, token, userId: null, email: null });
  const signIn = signInOperation(contract.operations);
  for (const [role, login] of Object.entries(options.logins)) {
    if (!signIn) throw new Error('--login needs a sign-in operation (operationId signIn) in the contract');
    const body = Buffer.from(JSON.stringify({ email: login.email, password: login.password }));
    requests++;
    const sent = await send(base, { method: 'POST', target: signIn.path, headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, options.timeoutMs);
    let parsed: unknown;
    try {
      parsed = JSON.parse(sent.answer?.body.toString('utf8') ?? '');
    } catch {
      parsed = null;
    }
    // The sign-in itself is judged like every other answer.
    if (sent.answer) {
      record(signIn, `sign-in as ${role}`, { method: 'POST', target: signIn.path, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"email":"…","password":"…"}') }, sent.answer.status, judge(signIn, 'conforming', sent.answer, validatorFor), '');
    }
    const token = findString(parsed, 'token');
    if (!sent.answer || sent.answer.status !== 200 || !token) {
      throw new Error(`sign-in as ${role} (${login.email}) failed: ${sent.answer ? `${sent.answer.status} ${sent.answer.body.subarray(0, 200).toString()}` : sent.error}`);
    }
    const profile = (parsed as { data?: { profile?: { id?: string } } }).data?.profile;
    credentials.set(role, { role, token, userId: profile?.id ?? null, email: login.email });
    if (profile?.id) pool.protectedIds.add(profile.id);
  }
  const roles = [...credentials.keys()];
  const ownEmails = new Set([...credentials.values()].map((c) => c.email?.toLowerCase()).filter(Boolean) as string[]);
  options.log(`Signed in: ${roles.join(', ') || 'no role (only the public operations and the missing-credentials matrix)'}`);

  let destructive = false;
  const builder = new CaseBuilder(
    {
      document: contract.document,
      validity,
      roles,
      pathValues: (operation) => pool.pathValues(operation, destructive),
      // Public operations (sign-in, reset) with the check's own e-mail addresses would count failed
      // sign-ins against those accounts and lock them: such values become a reserved address.
      scrub: (operation, value) =>
        operation.isPublic && ownEmails.size
          ? JSON.parse(JSON.stringify(value ?? null, (_, v: unknown) => (typeof v === 'string' && ownEmails.has(v.toLowerCase()) ? 'contract-check@example.invalid' : v)))
          : value,
    },
    options.seed,
  );

  const selection = selectOperations(contract.operations, options);
  const operations = selection.selected;
  skipped.push(...selection.skipped);

  // 2. Discovery: read-only operations, listings first, a few rounds so nested resources are found.
  const discovered = new Set<string>();
  for (let round = 0; round < 3; round++) {
    const ready = operations.filter((o) => o.method === 'GET' && !discovered.has(o.operationId) && (!o.path.includes('{') || pool.pathValues(o, false).length));
    const cases = ready.flatMap((o) => {
      discovered.add(o.operationId);
      return builder.deterministic(o).filter((c) => c.kind === 'valid').slice(0, 1);
    });
    await runAll(cases, options.concurrency);
  }
  options.log(`Resources: ${pool.summary()}`);

  // 3. Stateful flows (create → read → update → read → delete → read), unless the run must not change data.
  const flows = options.readOnly ? [] : findFlows(operations).filter((f) => [f.read, f.update, f.remove].every((o) => !o || operations.includes(o)));
  for (const flow of flows) {
    const missed = await runFlow(flow, {
      document: contract.document,
      softDeletes: new Set([...(options.softDeletes ?? []), ...contract.operations.filter((o) => o.softDelete).map((o) => o.operationId)]),
      plain: (operation, path, label, value) => builder.plain(operation, path, label, value),
      bodyValues: (operation) => builder.bodyValues(operation),
      randomBodyValue: (operation, index) => builder.randomBodyValue(operation, index),
      pathValues: (operation) => pool.pathValues(operation, false),
      execute,
      log: options.log,
    });
    if (missed) options.log(`Stateful ${flow.create.operationId} → ${flow.read.operationId}: not run (${missed})`);
  }

  // 4. The phases. The x-roles matrix is sent in full whatever the budget; the rest of the budget is shared
  // evenly by the operations a role the check holds may call (the others have nothing but the matrix).
  // The x-roles matrix of every operation runs first, while every session is alive: a correct server
  // refuses those requests, so even destructive operations change nothing there.
  const authCases = new Map(operations.map((o) => [o.operationId, builder.deterministic(o).filter((c) => c.kind === 'auth')]));
  const authTotal = [...authCases.values()].reduce((sum, list) => sum + list.length, 0);
  const callable = operations.filter((o) => builder.random(o, 0) !== null);
  const remaining = Math.max(0, options.requests - requests - authTotal);
  // Rounded up, so the run sends at least the requested number; two at the least, so that even a small
  // budget sends each operation's first valid request and its unknown id.
  const quota = Math.max(2, Math.ceil(remaining / Math.max(1, callable.length)));
  /** An operation's cases: deterministic ones first, then random ones up to `size`. */
  const casesFor = (operation: Operation, kinds: (kind: Case['kind']) => boolean, size: number) => {
    const chosen = chooseCases(builder.deterministic(operation).filter((c) => kinds(c.kind)), size);
    for (let index = 0; chosen.length < size; index++) {
      const c = builder.random(operation, index);
      if (!c) break;
      chosen.push(c);
    }
    return chosen;
  };
  for (const phase of [0, 1, 2, 3]) {
    // Later phases build their requests when they start, with the ids the check created or may change.
    destructive = phase > 0;
    const lists = operations
      .filter((o) => phaseOf(o) === phase)
      .map((o) => casesFor(o, (kind) => kind !== 'auth', quota));
    if (phase === 0) lists.push(...authCases.values());
    // Interleaved, so concurrent requests spread over operations instead of hammering one.
    const interleaved: Case[] = [];
    for (let i = 0; lists.some((list) => i < list.length); i++) for (const list of lists) if (i < list.length) interleaved.push(list[i]);
    // Session-ending operations one at a time, in a fixed order.
    await runAll(interleaved, phase >= 2 ? 1 : options.concurrency);
    if (stoppedEarly) break;
  }
  for (const operation of operations) {
    if (!tally.get(operation.operationId)!.requests) skipped.push({ operationId: operation.operationId, reason: 'no request could be built (no credentials for a listed role?)' });
  }

  return {
    requests,
    seconds: (Date.now() - started) / 1000,
    tally,
    failures,
    skipped,
    credentials: roles,
    resources: pool.summary(),
    stoppedEarly,
  };
}
