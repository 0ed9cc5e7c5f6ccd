// Checks the access log's hash chain (migration 0015) from the stored columns: the sequence has no gap, each
// row names the previous row's hash, and each hash is the SHA-256 of that and the row's canonical text,
// recomputed here with node:crypto rather than trusted to the database that stores the rows. Used by
// `npm run audit:verify` (server/cli/audit-verify.ts) and the tests.
import { createHash } from 'node:crypto';
import type { Database } from '../db/tables';
import { chainRows, type ChainRow } from '../repositories/access-log';

export const GENESIS_HASH = '0'.repeat(64);

export type { ChainRow };

export type ChainProblem = 'missing_before' | 'previous_hash' | 'altered';

export type ChainResult =
  | { ok: true; entries: number; head: { seq: string; hash: string } | null }
  | { ok: false; entries: number; broken: { seq: string; id: string; problem: ChainProblem; expected: string; found: string } };

/** A field as audit_log_field() writes it: its length in characters and the text, '-' for null. */
const field = (value: string | null) => (value === null ? '-' : `${[...value].length}:${value}`);

/** The canonical text of a row, as audit_log_text() builds it. */
export function canonicalText(row: ChainRow): string {
  return [
    row.seq,
    row.id,
    row.clinic_id,
    row.actor_id,
    row.actor_role,
    row.action,
    row.outcome,
    row.target_type,
    row.target_id,
    row.ip,
    row.patient_ids,
    row.detail,
    row.at,
  ]
    .map(field)
    .join('|');
}

export function rowHash(prevHash: string, row: ChainRow): string {
  return createHash('sha256').update(`${prevHash}\n${canonicalText(row)}`, 'utf8').digest('hex');
}

// Rows are read in pages of this many, in chain order (the unique index on seq).
const PAGE = 2000;

/** Walks the whole chain; stops at the first broken entry. */
export async function verifyAuditChain(db: Database): Promise<ChainResult> {
  let expectedSeq = 1n;
  let prevHash = GENESIS_HASH;
  let last: { seq: string; hash: string } | null = null;
  let entries = 0;
  for (;;) {
    const rows = await chainRows(db, expectedSeq, PAGE);
    for (const row of rows) {
      const broken = (problem: ChainProblem, expected: string, found: string): ChainResult => ({
        ok: false,
        entries,
        broken: { seq: row.seq, id: row.id, problem, expected, found },
      });
      if (BigInt(row.seq) !== expectedSeq) return broken('missing_before', String(expectedSeq), row.seq);
      if (row.prev_hash !== prevHash) return broken('previous_hash', prevHash, row.prev_hash);
      const hash = rowHash(prevHash, row);
      if (row.hash !== hash) return broken('altered', hash, row.hash);
      entries += 1;
      expectedSeq += 1n;
      prevHash = row.hash;
      last = { seq: row.seq, hash: row.hash };
    }
    if (rows.length < PAGE) return { ok: true, entries, head: last };
  }
}

/** One line for a person: what was checked, or which entry broke the chain and how. */
export function describeChain(result: ChainResult): string {
  if (result.ok) {
    const head = result.head ? `; head seq ${result.head.seq}, hash ${result.head.hash}` : '';
    return `audit log intact: ${result.entries} entries${head}`;
  }
  const { seq, id, problem, expected, found } = result.broken;
  const what: Record<ChainProblem, string> = {
    missing_before: `the entries before it are missing (expected seq ${expected})`,
    previous_hash: `it does not follow the entry before it (previous hash ${found}, expected ${expected})`,
    altered: `its content was altered (stored hash ${found}, recomputed ${expected})`,
  };
  return `audit log broken at seq ${seq} (id ${id}): ${what[problem]}; ${result.entries} entries before it are intact`;
}
