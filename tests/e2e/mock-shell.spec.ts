// Smoke test of `npm run dev:mock`: the SPA shell renders accessibly, the dev proxy reaches Prism, and a
// sign-in with the contract's examples (signIn, then getProfile: the physician) reaches the role's route.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ProfileResponse } from '../../generated/model/profileResponse';
import type { SignInRequest } from '../../generated/model/signInRequest';
import type { SignedInResponse } from '../../generated/model/signedInResponse';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { ROLE_HOMES, signInToHome, storedTokens } from './session';

test('the start page has a main heading, a language and no axe violations', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto('/');

  // The first visit may wait for Vite to pre-bundle dependencies.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect(heading).toHaveText(/\S/);
  await expect(page.locator('html')).toHaveAttribute('lang', /^[a-z]{2}(-[A-Za-z]+)?$/);

  await expectNoAxeViolations(page);
  expect(pageErrors).toEqual([]);
});

test('the dev proxy strips /api and Prism answers with the contract example', async ({ request }) => {
  const response = await request.get('/api/user/profile', { headers: { Authorization: 'Bearer demo' } });

  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/json/);
  expect(await response.json()).toMatchObject({ status: 'Success' });
});

type Operation = {
  requestBody?: { content: Record<string, Examples> };
  responses: Record<string, { content: Record<string, Examples> }>;
};
type Examples = { examples: Record<string, { value: unknown }> };

// What Prism serves: the first example of an operation's request or success answer.
const contract = parse(readFileSync('generated/openapi.yaml', 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const firstExample = <T>({ examples }: Examples) => Object.values(examples)[0].value as T;
const signInOperation = contract.paths['/sign-in'].post;
const credentials = firstExample<SignInRequest>(signInOperation.requestBody!.content['application/json']);
const signedIn = firstExample<SignedInResponse>(signInOperation.responses['200'].content['application/json']);
const profile = firstExample<ProfileResponse>(contract.paths['/user/profile'].get.responses['200'].content['application/json']);

test('signing in with the contract examples reaches the route of the example profile', async ({ page, texts }) => {
  const home = ROLE_HOMES.find(({ role }) => role === profile.data.role);
  expect(home, 'the example profile has a staff role').toBeDefined();

  await signInToHome(page, texts, { ...credentials, role: home!.role });

  expect(await storedTokens(page)).toEqual({ localStorage: signedIn.data.token, sessionStorage: null });
});

test('realtime is off on the mock: the navbar says it is not configured, and the console shows no error', async ({ page, texts }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));

  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto('/physician/list');
  const status = page.getByRole('img', { name: texts.common.realtime.off });
  await expect(status).toBeVisible({ timeout: 30_000 });
  await page.locator('table.mp-patient-table tbody a').filter({ hasText: 'Schneider' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maria Schneider');
  await expect(status).toBeVisible();

  expect(errors).toEqual([]);
  // Only Vite's own hot-reload socket, none to /api.
  expect(sockets.filter((url) => new URL(url).pathname.startsWith('/api'))).toEqual([]);
});
