import axios, {
  AxiosError,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { clearToken, getToken, readStorage } from './auth-storage';
import { getApiBaseUrl } from './runtime-config';

// Orval imports these two names from the mutator to type hook errors and request bodies.
export type ErrorType<E> = AxiosError<E>;
export type BodyType<B> = B;

/**
 * The message of a failure whose answer names none (no body, HTML of a proxy, no connection), in the UI's
 * language (see uiLanguage). Written here, not read from the catalogues: importing them would put both
 * languages' common texts into every page's first script. api-client.test.ts holds these to
 * `common:request.failed` of each catalogue.
 */
export const FALLBACK_MESSAGE = { en: 'An error occurred', de: 'Ein Fehler ist aufgetreten.' } as const;
const fallbackMessage = (): string => FALLBACK_MESSAGE[uiLanguage()];
const SIGN_IN_PATH = '/sign-in';

export type FieldErrors = Record<string, string[]>;

/**
 * Every rejection of the client (except cancellation) is an ApiError. It extends AxiosError so that
 * `ErrorType<E>` in the generated hooks stays truthful (`error.response?.data` is the body), while
 * `.message` is already the user-facing message of spec §8.
 */
export class ApiError<B = unknown> extends AxiosError<B> {
  /** HTTP status; 0 when no response arrived (network failure). */
  declare status: number;
  readonly body: B | undefined;
  readonly errors: FieldErrors | undefined;

  constructor(response: AxiosResponse<B> | undefined, cause?: AxiosError) {
    super(
      response ? messageOf(response.data) : fallbackMessage(),
      cause?.code,
      response?.config ?? cause?.config,
      response?.request ?? cause?.request,
      response,
    );
    this.name = 'ApiError';
    this.status = response?.status ?? 0;
    this.body = response?.data;
    this.errors = fieldErrorsOf(response?.data);
    if (cause) this.cause = cause;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function messageOf(body: unknown): string {
  const message = isRecord(body) ? body.message : undefined;
  if (isRecord(message) && typeof message.message === 'string' && message.message) return message.message;
  if (typeof message === 'string' && message) return message;
  return fallbackMessage();
}

function fieldErrorsOf(body: unknown): FieldErrors | undefined {
  return isRecord(body) && isRecord(body.errors) ? (body.errors as FieldErrors) : undefined;
}

/** Indirection so tests (and only tests) can observe navigation without a real page load. */
export const navigation = {
  assign: (url: string): void => window.location.assign(url),
};

/** Default 401 behaviour; an app handler set via setUnauthorizedHandler can call it after its own cleanup. */
export function redirectToSignIn(): void {
  if (window.location.pathname !== SIGN_IN_PATH) navigation.assign(SIGN_IN_PATH);
}

/** `sessionEnded`: the 401 answered this tab's current token (now cleared), rather than a call made without one. */
export type UnauthorizedHandler = (details: { sessionEnded: boolean }) => void;

let onUnauthorized: UnauthorizedHandler = redirectToSignIn;

/** Runs after the token is cleared on a 401. Call without an argument to restore the default. */
export function setUnauthorizedHandler(handler?: UnauthorizedHandler): void {
  onUnauthorized = handler ?? redirectToSignIn;
}

let onPasswordChangeRequired = (): void => {};

/**
 * What to do when a call answers 403 `auth.password_change_required`: the user's password expired (or was reset)
 * while signed in, and nothing but the profile, the password change and the logout answers until a new one is set.
 * The signed-in frame reads the profile again, whose flag then sends to /new-password (src/app/signed-in-layout.tsx).
 * Call without an argument to unset it.
 */
export function setPasswordChangeRequiredHandler(handler = (): void => {}): void {
  onPasswordChangeRequired = handler;
}

function uiLanguage(): 'en' | 'de' {
  // Read i18next's persisted choice instead of importing i18next: the client stays usable before
  // (and without) i18n initialisation, e.g. in tests and the realtime auth call.
  const language = readStorage('localStorage', 'i18nextLng')?.slice(0, 2).toLowerCase();
  return language === 'de' ? 'de' : 'en';
}

const ABSOLUTE_URL = /^([a-z][a-z\d+.-]*:)?\/\//i;

// Image paths may be absolute URLs on another host (e.g. pre-signed object-storage links);
// the bearer token must never be sent there.
function targetsApi(config: InternalAxiosRequestConfig): boolean {
  const url = config.url ?? '';
  if (!ABSOLUTE_URL.test(url)) return true;
  try {
    const origin = (href: string) => new URL(href, window.location.href).origin;
    return origin(url) === origin(config.baseURL || '/');
  } catch {
    return false;
  }
}

/**
 * What a 401 means here: the current token was refused (the session ended), or a call was made without any
 * token (not signed in; also a wrong password on the public sign-in call, which must not sign out other
 * tabs), or null for a late answer to a request made with an earlier token, which must not end the session
 * that replaced it.
 */
function unauthorizedOutcome(config: InternalAxiosRequestConfig | undefined): { sessionEnded: boolean } | null {
  const sent = config?.headers?.get?.('Authorization');
  const token = getToken();
  if (typeof sent !== 'string' || !sent) return token === null ? { sessionEnded: false } : null;
  // No token left: an earlier 401 of the same session has cleared it already.
  return token === null || sent === `Bearer ${token}` ? { sessionEnded: true } : null;
}

export const apiInstance = axios.create({
  // Uploads of exam files on slow clinic connections can take minutes: never time out.
  timeout: 0,
  // Repeated parameters as the contract describes them (style form, explode): role=a&role=b, not role[]=a.
  paramsSerializer: { indexes: null },
  headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
});

let realtimeSocket: () => string | null = () => null;

/** Tells the client where to read the page's realtime socket id (src/lib/realtime.ts; no import of it here). */
export function setRealtimeSocketSource(source: () => string | null): void {
  realtimeSocket = source;
}

apiInstance.interceptors.request.use((config) => {
  // Resolved per request: the runtime config may be injected after this module is loaded.
  config.baseURL ??= getApiBaseUrl();
  const { headers } = config;
  const token = getToken();
  if (token && !headers.has('Authorization') && targetsApi(config)) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  if (!headers.has('Language')) headers.set('Language', uiLanguage());
  // The realtime socket of this page: what this call changes is not announced back to it (it knows).
  const socketId = realtimeSocket();
  if (socketId && targetsApi(config)) headers.set('X-Socket-Id', socketId);
  // Generated image calls (responseType 'blob') would otherwise inherit the JSON Accept, which a
  // negotiating server (e.g. the Prism mock) may refuse with 406.
  if (config.responseType === 'blob' && headers.get('Accept') === 'application/json') {
    headers.set('Accept', '*/*');
  }
  // Any explicit Content-Type (JSON default or orval's bare 'multipart/form-data') lacks the boundary;
  // without one the browser adds the right header, and axios won't JSON-encode the FormData.
  if (typeof FormData !== 'undefined' && config.data instanceof FormData) headers.delete('Content-Type');
  return config;
});

apiInstance.interceptors.response.use(
  (response) => {
    // The server may report failure inside a 2xx envelope (spec §8).
    if (isRecord(response.data) && response.data.status === 'Error') throw new ApiError(response);
    return response;
  },
  (error: unknown) => {
    // Cancellation is not a failure: react-query recognises and ignores it.
    if (axios.isCancel(error) || !axios.isAxiosError(error)) throw error;
    const unauthorized = error.response?.status === 401 ? unauthorizedOutcome(error.config) : null;
    if (unauthorized) {
      if (unauthorized.sessionEnded) clearToken();
      onUnauthorized(unauthorized);
    }
    const body: unknown = error.response?.data;
    if (error.response?.status === 403 && isRecord(body) && body.code === 'auth.password_change_required') onPasswordChangeRequired();
    // Spec §8 says other failures reject "with the response body data". We reject with an ApiError
    // that carries that body (`.body`, `.errors`) so callers also get a ready message, an HTTP status,
    // and one error shape for HTTP, envelope and network failures alike.
    throw new ApiError(error.response, error);
  },
);

/** Orval mutator: resolves to the whole response body (the `{status, message?, data}` envelope). */
export const apiClient = <T>(config: AxiosRequestConfig, options?: AxiosRequestConfig): Promise<T> =>
  apiInstance
    .request<T>({
      ...config,
      ...options,
      // A shallow spread would let options.headers drop the generated Content-Type.
      headers: { ...config.headers, ...options?.headers },
    })
    .then((response) => response.data);

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('Could not read image'));
    reader.readAsDataURL(blob);
  });
}

/** True for a request the caller aborted (its AbortSignal): no failure to report. */
export const isCancelled = (error: unknown): boolean => axios.isCancel(error);

/** Spec §7 "GET any image path": a data URL for <img src>, or '' when the server sent no blob. */
export async function fetchImageAsDataUrl(path: string, signal?: AbortSignal): Promise<string> {
  const { data } = await apiInstance.get<unknown>(path, {
    responseType: 'blob',
    headers: { Accept: 'image/*' },
    signal,
  });
  return data instanceof Blob ? readAsDataUrl(data) : '';
}
