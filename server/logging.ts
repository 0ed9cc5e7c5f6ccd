// Logs (pino through Fastify): JSON lines for production and log collectors, readable lines (pino-pretty)
// for a person at a terminal. Never a secret: no headers or bodies are logged, and token or password
// values are masked wherever they could appear in a line (URLs, error messages and stacks).
import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

// `token=…` and `password=…` in query strings and text, `Bearer …` credentials, and the 43-character
// base64url one-time tokens of invite and reset links wherever they stand alone.
const SECRET_QUERY = /([?&](?:token|password)=)[^&\s"']*/gi;
const BEARER = /(Bearer\s+)[\w.~+/=-]+/gi;
const BARE_TOKEN = /(?<![\w-])[A-Za-z0-9_-]{43}(?![\w-])/g;

export const maskUrl = (url: string): string => url.replace(SECRET_QUERY, '$1***');

/** Any text with its secrets masked. */
export const maskSecrets = (text: string): string =>
  maskUrl(text).replace(BEARER, '$1***').replace(BARE_TOKEN, '***');

/**
 * Errors by name, code, message and stack only, masked: other properties an error carries (a failed
 * SMTP exchange's `response`, a driver's query parameters) may hold addresses or tokens.
 */
function maskedError(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: maskSecrets(String(error)), stack: '' };
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: maskSecrets(error.message),
    stack: maskSecrets(error.stack ?? ''),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
  };
}

/** Pretty when asked for, else pretty on a terminal and JSON when the output goes to a file or a collector. */
export function logFormatFor(requested: LogFormat | null, isTerminal: boolean): LogFormat {
  return requested ?? (isTerminal ? 'pretty' : 'json');
}

export interface LoggerSetup {
  logger: FastifyServerOptions['logger'];
  /** A line per request: in JSON (collectors want it) and at debug level; not on an interactive console. */
  requestLogging: boolean;
}

export function loggerOptions(
  level: string,
  format: LogFormat = 'json',
  destination: NodeJS.WritableStream = process.stdout,
): LoggerSetup {
  const common = {
    level,
    serializers: {
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        id: request.id,
        method: request.method,
        url: maskUrl(request.url),
        ip: request.ip,
      }),
      err: maskedError,
    },
  };
  if (format === 'json') return { logger: { ...common, stream: destination }, requestLogging: true };
  const stream = pretty({
    destination,
    colorize: (destination as { isTTY?: boolean }).isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
    sync: true,
  });
  return { logger: { ...common, stream }, requestLogging: level === 'debug' || level === 'trace' };
}
