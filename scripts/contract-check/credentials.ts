// Credentials per role: `--token role=TOKEN` as given, or `--login role=email:password` through the
// contract's own sign-in operation (operationId `signIn`), once per role at the start (sign-in is throttled,
// so the check never signs in again mid-run).
import type { Operation } from './contract';

export interface Credential {
  role: string;
  token: string;
  /** The account's id when the sign-in answer names it (kept out of destructive paths). */
  userId: string | null;
  email: string | null;
}

export interface CredentialOptions {
  tokens: Record<string, string>;
  logins: Record<string, { email: string; password: string }>;
}

/** Parses `role=value` pairs; a role given twice is an error, so a typo cannot silently win. */
export function parseRolePairs(pairs: string[], what: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`${what} must look like role=value (got "${pair}")`);
    const role = pair.slice(0, at);
    if (role in result) throw new Error(`${what}: role ${role} given twice`);
    result[role] = pair.slice(at + 1);
  }
  return result;
}

export function parseLogins(pairs: string[]): CredentialOptions['logins'] {
  const logins: CredentialOptions['logins'] = {};
  for (const [role, value] of Object.entries(parseRolePairs(pairs, '--login'))) {
    const colon = value.indexOf(':');
    if (colon <= 0) throw new Error(`--login ${role}= must be email:password`);
    logins[role] = { email: value.slice(0, colon), password: value.slice(colon + 1) };
  }
  return logins;
}

/** The first string found under `key` anywhere in a JSON value (breadth-first). */
export function findString(value: unknown, key: string): string | null {
  const queue: unknown[] = [value];
  while (queue.length) {
    const at = queue.shift();
    if (!at || typeof at !== 'object') continue;
    for (const [k, v] of Object.entries(at)) {
      if (k === key && typeof v === 'string') return v;
      if (v && typeof v === 'object') queue.push(v);
    }
  }
  return null;
}

export function signInOperation(operations: Operation[]): Operation | null {
  return operations.find((o) => o.operationId === 'signIn') ?? operations.find((o) => o.method === 'POST' && /sign-?in|login/i.test(o.path)) ?? null;
}
