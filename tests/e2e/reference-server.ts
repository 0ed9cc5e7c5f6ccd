import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the journeys' reference server runs: a port of its own (so a developer's `npm start` on 8080 can
 * keep running) and a data directory that tests/e2e/start-reference-server.ts empties on every start.
 * Shared by playwright.config.ts, the start script and the fixtures (which read the e-mail outbox).
 */
export const REFERENCE_PORT = Number(process.env.MACULA_E2E_SERVER_PORT || 8091);
export const REFERENCE_URL = `http://127.0.0.1:${REFERENCE_PORT}`;
export const REFERENCE_DATA_DIR = join(tmpdir(), `macula-e2e-${REFERENCE_PORT}`);
/** Without SMTP_URL the server writes every e-mail here as an .eml file (server/mail/mailer.ts). */
export const OUTBOX_DIR = join(REFERENCE_DATA_DIR, 'outbox');
