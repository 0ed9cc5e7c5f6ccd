import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { setToken } from '@/lib/auth-storage';
import { createI18n, LANGUAGES, type UiLanguage } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
// Tells React's act() that this is a test, as for every component test.
import '@/testing/render';
import { PRERENDERED_PATHS, prerender } from './prerender';
import { startApp } from './start-app';

let container: HTMLElement;
let root: Root | undefined;
let consoleErrors: unknown[][];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => void consoleErrors.push(args));
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
  localStorage.clear();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

/** `path` as the server sends it (the build's HTML in `language`), opened in a browser whose UI language is `uiLanguage`. */
async function arriveAt(path: string, language: UiLanguage, { uiLanguage = language, search = '' } = {}) {
  const { html } = await prerender(path, language);
  container = document.createElement('div');
  container.id = 'root';
  container.dataset.prerendered = language;
  container.innerHTML = html;
  document.body.append(container);
  window.history.replaceState(null, '', `${path}${search}`);
  localStorage.setItem('i18nextLng', uiLanguage);
}

async function start(): Promise<'hydrated' | 'rendered'> {
  let how: 'hydrated' | 'rendered' = 'rendered';
  await act(async () => {
    const started = await startApp(container, { queryClient: createQueryClient(), i18n: createI18n() });
    root = started.root;
    how = started.started;
  });
  return how;
}

const heading = () => container.querySelector('h1');

describe('a public page the build rendered', () => {
  for (const language of LANGUAGES) {
    for (const path of PRERENDERED_PATHS) {
      it(`${path} in ${language} is taken over as it stands: the same elements, nothing React finds different`, async () => {
        await arriveAt(path, language);
        const sent = heading();
        expect(sent).not.toBeNull();
        expect(await start()).toBe('hydrated');
        // React reports a page that hydrates differently from what the server sent (text, attributes) on console.error.
        expect(consoleErrors).toEqual([]);
        expect(heading()).toBe(sent);
        expect(document.documentElement.lang).toBe(language);
      });
    }
  }

  for (const path of [paths.auth.signIn.path, paths.auth.resetPassword.path]) {
    it(`${path} cannot be sent before React has taken it over: the browser would send it itself, the password in the address`, async () => {
      await arriveAt(path, 'en');
      const submit = () => container.querySelector<HTMLButtonElement>('button[type=submit]')!;
      expect(submit().disabled).toBe(true);
      expect(await start()).toBe('hydrated');
      expect(submit().disabled).toBe(false);
    });
  }

  it('keeps what was typed into the sign-in form before the code arrived, and leaves the focus where the user is', async () => {
    await arriveAt(paths.auth.signIn.path, 'en');
    const email = container.querySelector<HTMLInputElement>('input[type=email]')!;
    const password = container.querySelector<HTMLInputElement>('input[type=password]')!;
    email.value = 'typed@clinic.example';
    password.value = 'half-typ';
    password.focus();
    expect(await start()).toBe('hydrated');
    expect(email.value).toBe('typed@clinic.example');
    expect(password.value).toBe('half-typ');
    expect(document.activeElement).toBe(password);
    expect(container.querySelector<HTMLInputElement>('input[type=checkbox]')!.checked).toBe(true);
  });

  it('does not move the focus into the e-mail field once something was typed, even when no field has the focus', async () => {
    await arriveAt(paths.auth.signIn.path, 'en');
    container.querySelector<HTMLInputElement>('input[type=email]')!.value = 'typed@clinic.example';
    expect(document.activeElement).toBe(document.body);
    expect(await start()).toBe('hydrated');
    expect(document.activeElement).toBe(document.body);
  });

  it('puts the focus in the e-mail field when nothing was typed yet', async () => {
    await arriveAt(paths.auth.signIn.path, 'en');
    expect(await start()).toBe('hydrated');
    expect(document.activeElement).toBe(container.querySelector('input[type=email]'));
  });

  it('is drawn anew in the browser’s language when the server sent the other one', async () => {
    await arriveAt(paths.auth.signIn.path, 'en', { uiLanguage: 'de' });
    const sent = heading();
    expect(await start()).toBe('rendered');
    expect(heading()).not.toBe(sent);
    expect(heading()?.textContent).toBe('Anmelden');
    expect(consoleErrors).toEqual([]);
  });

  it('is drawn anew when a query changes what it shows (signed out for inactivity)', async () => {
    await arriveAt(paths.auth.signIn.path, 'en', { search: '?signedOut=idle' });
    expect(await start()).toBe('rendered');
    expect(container.querySelector('[role=status]')?.textContent).toContain('Signed out after inactivity');
  });

  it('is drawn anew for a signed-in user, whom the sign-in page sends on', async () => {
    await arriveAt(paths.auth.signIn.path, 'en');
    setToken('a-token', true);
    expect(await start()).toBe('rendered');
  });
});
