// The parameter sets the reference sync app hands to the laser (issue 29): each fetched into the laser's import
// folder once its SHA-256 is the one the server named, written whole (temporary file, then renamed), and
// confirmed; a withdrawn one is taken out of the folder. With `--simulate-treatment` it stands in for the laser:
// it reports every planned spot as fired at its planned power. What it reported is kept before it is sent, so
// a report lost in a restart is sent again unchanged (the server takes the same report twice as once).
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DeliveryReport } from '../../generated/model/deliveryReport';
import { readParameterSet } from '../../src/domain/npt/read-npt';
import { Records } from './state';

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What the app did with each transfer: the file it wrote, the report it made (and whether the server has it). */
interface TransferRecord {
  file: string;
  report?: DeliveryReport;
  reported?: boolean;
}

/** The transfers by id (`transfers.json` in the state folder). */
export type TransferLedger = Records<TransferRecord>;
export const TransferLedger = { open: (stateDir: string): Promise<TransferLedger> => Records.open<TransferRecord>(stateDir, 'transfers.json') };

/** Writes the parameter set into the laser's folder under its own name (never a path of the server's choosing). */
export async function placeParameterSet(dir: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const name = basename(fileName).replace(/[^A-Za-z0-9._-]/g, '_');
  const path = join(dir, name);
  const temporary = `${path}.${process.pid}.partial`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
  return name;
}

export async function withdrawParameterSet(dir: string, name: string): Promise<void> {
  await rm(join(dir, name), { force: true });
}

/** A laser that fired every planned spot at its planned power, now. */
export async function simulatedTreatment(dir: string, name: string, at: Date): Promise<DeliveryReport> {
  const read = readParameterSet(new Uint8Array(await readFile(join(dir, name))));
  if (!read.ok) return { outcome: 'failed', at: at.toISOString(), reason: `The parameter set could not be read: ${read.error.code}` };
  const spots = read.value.manifest.plan.spots.map((spot) => ({ id: spot.id, powerMw: spot.powerMw }));
  return { outcome: 'treated', at: at.toISOString(), spots };
}
