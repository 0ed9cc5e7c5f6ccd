import { ApiError } from '@/lib/api-client';

/**
 * The server's message of a failed file download. A call made for a Blob (responseType 'blob') gets its error
 * envelope as a Blob too, which the api client cannot read synchronously, so its ApiError says only "An error
 * occurred"; this reads the envelope (nested message, else message, as `ErrorEnvelope` says). Undefined when
 * the failure carries no envelope.
 */
export async function blobFailureMessage(error: unknown): Promise<string | undefined> {
  if (!(error instanceof ApiError) || !(error.body instanceof Blob)) return undefined;
  try {
    const body: unknown = JSON.parse(await error.body.text());
    if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
    const { message } = body;
    if (typeof message === 'object' && message !== null && 'message' in message && typeof message.message === 'string' && message.message) {
      return message.message;
    }
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    // Not JSON (a proxy's HTML page, say): the generic message stands.
    return undefined;
  }
}
