// The instance's own state, for load balancers: does it reach its database and its file storage?
import type { AppContext } from '../context';
import { pingDatabase } from '../repositories/health';

/** A balancer gives up on a slow answer anyway: after this, the part counts as not answering. */
const PART_TIMEOUT_MS = 5_000;

async function answers(part: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PART_TIMEOUT_MS)));
  try {
    return await Promise.race([part().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the database and the file store each answer, asked at the same time. */
export async function partsAnswering(ctx: Pick<AppContext, 'db' | 'files'>): Promise<{ database: boolean; storage: boolean }> {
  const [database, storage] = await Promise.all([answers(() => pingDatabase(ctx.db)), answers(() => ctx.files.ping())]);
  return { database, storage };
}
