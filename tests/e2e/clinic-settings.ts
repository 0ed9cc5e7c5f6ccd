// The demo clinic's security settings are one record that every journey's users live under. A journey that
// changes them takes this lock (across the projects' worker processes), and puts the settings back after.
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import type { SecuritySettingsResponse } from '../../generated/model/securitySettingsResponse';

const LOCK = join(tmpdir(), 'macula-e2e-clinic-settings.lock');
const WAIT_MS = 120_000;

async function acquire(): Promise<void> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > until) throw error;
      // A lock older than any journey was left by a run that was killed: it goes.
      const since = await stat(LOCK).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (since > WAIT_MS) await rmdir(LOCK).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Runs `journey` alone among the journeys that change the clinic's settings, restoring them afterwards. */
export async function withClinicSettings(clinicAdmin: APIRequestContext, journey: () => Promise<void>): Promise<void> {
  await acquire();
  try {
    const saved = await clinicAdmin.get('/api/clinic/settings');
    expect(saved.status()).toBe(200);
    const { data } = (await saved.json()) as SecuritySettingsResponse;
    try {
      await journey();
    } finally {
      const restored = await clinicAdmin.post('/api/clinic/settings', { data });
      expect(restored.status(), await restored.text()).toBe(200);
    }
  } finally {
    await rmdir(LOCK);
  }
}
