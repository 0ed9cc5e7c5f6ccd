// What the reference sync app says to the product: the device operations of the contract (tag device-sync),
// over fetch, with the contract's envelopes. Types come from the generated models.
import type { DeviceCredentialResponse } from '../../generated/model/deviceCredentialResponse';
import type { DeliveryReport } from '../../generated/model/deliveryReport';
import type { DeviceExamResponse } from '../../generated/model/deviceExamResponse';
import type { DeviceTransferListResponse } from '../../generated/model/deviceTransferListResponse';
import type { DeviceTransferResponse } from '../../generated/model/deviceTransferResponse';
import type { HeartbeatResponse } from '../../generated/model/heartbeatResponse';

/** A refusal or failure, with what the sync app needs to decide: retry (when), re-enrol, or give up. */
export class DeviceApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    readonly code: string | null,
    /** Seconds the server asked to wait (429, 503). */
    readonly retryAfterSeconds: number | null,
    /** The error envelope as sent (e.g. a duplicate's `treatment`). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** Worth trying again later: the network, a server starting or busy, a rate limit. */
  get transient(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

export interface DeviceApiOptions {
  server: string;
  credential?: string;
  /** Milliseconds before a call is given up (and retried). */
  timeoutMs?: number;
}

export class DeviceApi {
  constructor(private readonly options: DeviceApiOptions) {}

  withCredential(credential: string): DeviceApi {
    return new DeviceApi({ ...this.options, credential });
  }

  enrol(code: string, syncAppVersion: string): Promise<DeviceCredentialResponse> {
    return this.call('POST', '/device/enrolment', { code, syncAppVersion }, false);
  }

  heartbeat(syncAppVersion: string): Promise<HeartbeatResponse> {
    return this.call('POST', '/device/heartbeat', { syncAppVersion });
  }

  listParameterSets(): Promise<DeviceTransferListResponse> {
    return this.call('GET', '/device/parameter-sets', undefined);
  }

  /** The parameter-set file's bytes. */
  async fetchParameterSet(id: string): Promise<Uint8Array> {
    return this.call('GET', `/device/parameter-sets/${id}/file`, undefined, true, 'bytes');
  }

  acknowledge(id: string, sha256: string): Promise<DeviceTransferResponse> {
    return this.call('POST', `/device/parameter-sets/${id}/receipt`, { sha256 });
  }

  reportDelivery(id: string, report: DeliveryReport): Promise<DeviceTransferResponse> {
    return this.call('POST', `/device/parameter-sets/${id}/delivery`, report);
  }

  /** Uploads an NPT exam (multipart, the field `file`). */
  uploadExam(bytes: Uint8Array, fileName: string): Promise<DeviceExamResponse> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
    return this.call('POST', '/device/exams', form);
  }

  private async call<T>(method: string, path: string, body: unknown, authenticated = true, answerAs: 'json' | 'bytes' = 'json'): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', Language: 'en' };
    const multipart = body instanceof FormData;
    // fetch sets a form's multipart type with its boundary itself.
    if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
    if (authenticated && this.options.credential) headers.Authorization = `Bearer ${this.options.credential}`;
    let response: Response;
    let bytes: Uint8Array | null = null;
    let text = '';
    try {
      response = await fetch(new URL(`api${path}`, this.base()), {
        method,
        headers,
        body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
        // An exam of up to 100 MB over a slow clinic link takes minutes.
        signal: AbortSignal.timeout(this.options.timeoutMs ?? (multipart ? 15 * 60_000 : 30_000)),
      });
      // The answer is read here too: a connection lost halfway through it (the server killed, a proxy restarted)
      // is a server out of reach, tried again, and must not end the app as an unknown error would.
      if (response.ok && answerAs === 'bytes') bytes = new Uint8Array(await response.arrayBuffer());
      else text = await response.text();
    } catch (error) {
      throw new DeviceApiError(`cannot reach ${this.options.server}: ${(error as Error).message}`, 0, null, null);
    }
    if (bytes) return bytes as T;
    let answer: Record<string, unknown> = {};
    try {
      answer = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // Not the product's envelope (a proxy's error page): the status says enough.
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const message = typeof answer.message === 'string' ? answer.message : `${method} ${path} answered ${response.status}`;
      const code = typeof answer.code === 'string' ? answer.code : null;
      throw new DeviceApiError(message, response.status, code, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null, answer);
    }
    return answer as T;
  }

  private base(): string {
    return this.options.server.endsWith('/') ? this.options.server : `${this.options.server}/`;
  }
}
