// @ts-check
// The clinic's other client in a worker thread of its own (scripts/bench-responsiveness.ts): the uploads and the
// card's reads come from a browser, never from the server's thread, so a benchmark that runs the server in its
// own process sends them from here (as scripts/paced-load.mjs sends the list's requests). Each message is one
// request, answered with its status and JSON body:
//   { id, method, url, headers, json? }                 → a JSON request
//   { id, method: 'POST', url, headers, file, fileName } → a multipart upload of `file` (an ArrayBuffer, moved here)
import { parentPort } from 'node:worker_threads';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/**
 * @param {{ method: string; url: string; headers: Record<string, string>; json?: unknown; file?: ArrayBuffer; fileName?: string }} request
 * @returns {RequestInit}
 */
function init({ method, headers, json, file, fileName }) {
  if (file) {
    const form = new FormData();
    form.append('file', new Blob([file]), fileName ?? 'exam.npt');
    return { method, headers, body: form };
  }
  if (json === undefined) return { method, headers };
  return { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(json) };
}

port.on('message', async (/** @type {any} */ request) => {
  try {
    const answer = await fetch(request.url, init(request));
    const text = await answer.text();
    port.postMessage({ id: request.id, status: answer.status, body: text ? JSON.parse(text) : null });
  } catch (error) {
    port.postMessage({ id: request.id, status: 0, body: null, error: String(error) });
  }
});
