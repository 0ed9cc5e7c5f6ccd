// The demo clinic of `npm start` (written in the next step of this issue).
import type { AppContext } from '../context';
import type { Database } from '../db/tables';

export interface DemoSummary {
  clinicName: string;
  password: string;
  accounts: { role: string; email: string }[];
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const row = await db.selectFrom('clinics').select('id').limit(1).executeTakeFirst();
  return !row;
}

export async function seedDemo(_ctx: AppContext): Promise<DemoSummary> {
  throw new Error('seedDemo is not written yet');
}
