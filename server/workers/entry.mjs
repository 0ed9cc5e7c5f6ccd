// The entry of the pool's worker threads (server/workers/pool.ts). The server's code is TypeScript, run by tsx
// (`npm start`, `npx tsx server/main.ts`) or by Vitest; neither's loader reaches a worker thread (tsx registers
// its hooks on the main thread only), so the worker registers tsx's loader itself before it loads the tasks.
// Registered once per thread, whoever started the server. Plain JavaScript: this file is what makes .ts loadable.
import { register } from 'tsx/esm/api';

register();
const tasks = import('./tasks.ts');

/** Every task comes through here: `{ task, input, fault? }` (tasks.ts, `perform`). */
export default async function perform(message) {
  return (await tasks).perform(message);
}
