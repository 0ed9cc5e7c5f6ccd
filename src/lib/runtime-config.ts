declare global {
  interface Window {
    /** Injected by the server into index.html so one build can be deployed against any API host. */
    __MACULA_CONFIG__?: { apiBaseUrl?: string };
  }
}

/** Address of the API, e.g. `https://api.example.com/api`, or `/api` for same origin. */
export function getApiBaseUrl(): string {
  const runtime = typeof window === 'undefined' ? undefined : window.__MACULA_CONFIG__?.apiBaseUrl;
  // Read as unknown: the env var is optional and may be typed elsewhere as `string`.
  const buildTime: unknown = import.meta.env.VITE_API_BASE_URL;
  // `??` rather than `||`: a runtime value of '' deliberately means "same origin".
  const base = runtime ?? (typeof buildTime === 'string' ? buildTime : '');
  return `${base.replace(/\/+$/, '')}/api`;
}
