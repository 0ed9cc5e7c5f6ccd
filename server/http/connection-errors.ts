// Failures of the HTTP connection itself, before any route is known: a request that could not be parsed,
// headers too large, a request that did not arrive within the request timeout. Node answers these on the
// raw socket; we answer them with the contract's error envelope (in English: no header has been read).
import type { Socket } from 'node:net';

interface ConnectionError extends Error {
  code?: string;
}

const ANSWERS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request.timeout', 'The request took too long to arrive. Please try again.'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request.headers_too_large', 'The request headers are too large.'],
};
const MALFORMED: [number, string, string, string] = [400, 'Bad Request', 'request.malformed', 'The request could not be read.'];

export function answerConnectionError(error: ConnectionError, socket: Socket): void {
  // The client went away: nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ status: 'Error', message, code });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
