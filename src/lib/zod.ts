import { config } from 'zod/v4/core';

/*
 * Every `import … from 'zod'` of the SPA (ours and generated/zod's) resolves here (the alias in vite.config.ts).
 * The server's Content-Security-Policy forbids eval: zod must not probe for it — each probe is a CSP violation
 * in the console — and validates without compiled functions instead. zod reads the setting when a schema is
 * built, so it must be set before any module builds one: as the module every zod user imports, this one's
 * body runs before theirs.
 */
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
