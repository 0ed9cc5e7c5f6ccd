// `npm run audit:verify`: checks the access log's hash chain in the database the server uses (DATA_DIR's
// PGlite, or DATABASE_URL), reading only. Exit 0 with the number of entries and the chain's head (note it: a
// later run that shows an earlier head, or other hashes up to it, means the log was rewritten); exit 1 naming
// the first broken entry. On PGlite, stop the server first: one process at a time opens the data directory.
import { pathToFileURL } from 'node:url';
import { loadConfigOrExplain } from '../config';
import { openConfiguredDatabaseOrExplain } from '../db/database';
import { describeChain, verifyAuditChain } from '../services/audit-chain';

export async function main(): Promise<number> {
  const config = loadConfigOrExplain();
  if (!config) return 2;
  const opened = await openConfiguredDatabaseOrExplain(config);
  if (!opened) return 2;
  try {
    const result = await verifyAuditChain(opened.db);
    if (result.ok) {
      console.log(describeChain(result));
      return 0;
    }
    console.error(describeChain(result));
    return 1;
  } finally {
    await opened.db.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main();
}
