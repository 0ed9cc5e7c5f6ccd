// Which exam files of the watched folder the server has (issue 29): by SHA-256, the session each made or why
// the server refused it, kept in the state folder and written after each answer. A file in the ledger is never
// sent again, and one whose answer was lost is sent again and answered "duplicate" with its session: either
// way each file makes one session.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Records } from './state';

export type LedgerEntry = { file: string; treatmentId: string } | { file: string; refused: string };

/** The uploads by the file's SHA-256 (`uploads.json` in the state folder). */
export type UploadLedger = Records<LedgerEntry>;
export const UploadLedger = { open: (stateDir: string): Promise<UploadLedger> => Records.open<LedgerEntry>(stateDir, 'uploads.json') };

export interface ExamFile {
  name: string;
  bytes: Uint8Array;
  sha256: string;
}

/** A file still being written is left for the next look: it must be this many milliseconds unchanged. */
export const SETTLED_MS = 2000;

/** The `.npt` files of the folder that have settled, by name. */
export async function settledExams(dir: string, now = Date.now()): Promise<ExamFile[]> {
  const names = (await readdir(dir)).filter((name) => name.toLowerCase().endsWith('.npt')).sort();
  const exams: ExamFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || now - info.mtimeMs < SETTLED_MS) continue;
    const bytes = new Uint8Array(await readFile(path));
    exams.push({ name, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return exams;
}
