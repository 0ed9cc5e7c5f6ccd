// Codes of an authenticator app for the journeys: the secret is read off the setup screen, as a person types it
// into their app, and the code worked out as the app would (RFC 6238, with the server's own implementation).
import { expect, type Locator, type Page } from '@playwright/test';
import { currentCode } from '../../server/security/totp';
import type { Texts } from './texts';

const STEP_MS = 30_000;

/**
 * A code the server has not taken yet: each code works once, so after the code that switched it on the next
 * sign-in uses the following time step (the server accepts one step of drift either way).
 */
export const nextCode = (secret: string, steps = 1) => currentCode(secret, new Date(Date.now() + steps * STEP_MS));

/**
 * Goes through the setup shown in `page` (a page, or the part of one that holds it): the password (null: right
 * after a sign-in that asks for the setup, it is not asked), the key to type, the first code. Answers the secret
 * and the recovery codes.
 */
export async function setUpAuthenticator(page: Page | Locator, texts: Texts, password: string | null): Promise<{ secret: string; codes: string[] }> {
  const tf = texts.twoFactor;
  if (password !== null) {
    await page.getByLabel(tf.currentPassword).fill(password);
    await page.getByRole('button', { name: tf.continue }).click();
  }
  await expect(page.getByRole('img', { name: tf.qrAlt })).toBeVisible();
  const secret = (await page.locator('.mp-two-factor-secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel(tf.code).fill(currentCode(secret, new Date()));
  await page.getByRole('button', { name: tf.switchOn }).click();
  const list = page.getByRole('list', { name: tf.codesLabel });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allTextContents();
  return { secret, codes };
}
