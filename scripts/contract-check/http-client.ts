// Sends requests exactly as built: node:http takes the path as raw text, so `%ff%fe` and other broken
// encodings reach the server unchanged (fetch would normalise them). Every request has a timeout.
import http from 'node:http';
import https from 'node:https';
import type { Answer } from './checks';

export interface RawRequest {
  method: string;
  /** Path and query, already encoded (or deliberately mis-encoded). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Sent {
  answer: Answer | null;
  /** Network error or timeout (the server closed or stalled). */
  error: string | null;
  ms: number;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/** The answer's body is read up to this size; beyond it the check only needs to know it was big. */
const MAX_BODY = 4 * 1024 * 1024;

export function send(base: URL, request: RawRequest, timeoutMs: number): Promise<Sent> {
  const started = performance.now();
  const client = base.protocol === 'https:' ? https : http;
  const basePath = base.pathname.replace(/\/$/, '');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Answer | null, error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ answer, error, ms: performance.now() - started });
    };
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body) headers['content-length'] = request.body.length;
    const req = client.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: request.method,
        path: basePath + request.target,
        headers,
        agent: agents[base.protocol as 'http:' | 'https:'],
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY) chunks.push(chunk);
        });
        const answerHeaders = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
        res.on('end', () => finish({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks), headers: answerHeaders }, null));
        res.on('error', (error) => finish(null, error.message));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    req.on('error', (error) => finish(null, error.message));
    if (request.body) req.end(request.body);
    else req.end();
  });
}

/**
 * A curl command that repeats the request (body shown up to `bodyChars` characters), with the headers as sent
 * except that the `secrets` (the real tokens) read `$TOKEN`; made-up credentials stay visible. A request sent
 * without credentials says so in a trailing shell comment.
 */
export function curlOf(base: URL, request: RawRequest, secrets: string[] = [], bodyChars = 300): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl', '-i', '-X', request.method, '--path-as-is', quote(base.origin + base.pathname.replace(/\/$/, '') + request.target)];
  // A token shown as $TOKEN stays a shell variable: double quotes (nothing else in such a value needs quoting).
  const hide = (value: string) => secrets.filter((secret) => secret.length >= 8).reduce((text, secret) => text.split(secret).join('$TOKEN'), value);
  for (const [name, value] of Object.entries(request.headers).map(([n, v]) => [n, hide(v)])) parts.push('-H', /\$TOKEN/.test(value) && !/["\\`]/.test(value) ? `"${name}: ${value}"` : quote(`${name}: ${value}`));
  if (request.body?.length) {
    const text = request.body.toString('utf8');
    // Control characters would not survive a terminal copy: such bodies are shown as base64.
    const printable = !text.includes('\ufffd') && ![...text].some((c) => c.charCodeAt(0) < 32 && !'\t\n\r'.includes(c));
    if (!printable) parts.push('--data-binary', quote(`<${request.body.length} bytes, base64 ${request.body.subarray(0, 120).toString('base64')}…>`));
    else {
      const shown = text.length > bodyChars ? `${text.slice(0, bodyChars)}…(${text.length} characters)` : text;
      // Multipart bodies need their CR LF: bash's $'…' quoting keeps them.
      parts.push('--data-binary', /[\r\n]/.test(shown) ? `$'${shown.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'` : quote(shown));
    }
  }
  if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'authorization')) parts.push('# no Authorization header');
  return abbreviateRuns(parts.join(' '));
}

/** Long runs of one character (huge-string cases) shown as `a{×8000}`, so a failure stays readable. */
export function abbreviateRuns(text: string): string {
  return text.replace(/(.)\1{63,}/gsu, (run, char: string) => `${char}{×${[...run].length}}`);
}
