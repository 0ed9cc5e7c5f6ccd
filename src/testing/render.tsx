/**
 * Minimal DOM test helpers (the project has no @testing-library): render routes inside the app's
 * providers, type, click, and wait for the UI to settle.
 */
import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '@/app/providers';
import { createI18n, type UiLanguage } from '@/lib/i18n';
import { ALL_CATALOGUES } from './catalogues';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

const mounted = new Set<{ root: Root; container: HTMLElement }>();

export type Rendered = {
  container: HTMLElement;
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
  i18n: I18n;
};

/**
 * Renders `routes` at `path` with the app's providers; a fresh query client and i18n per call. Routes whose
 * loaders prefetch into the query client come as a function of it (e.g. `createRoutes` of src/app/router.tsx).
 */
export async function renderRoutes(
  routes: RouteObject[] | ((queryClient: QueryClient) => RouteObject[]),
  { path, language = 'en' }: { path: string; language?: UiLanguage },
): Promise<Rendered> {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: 0 } } });
  const i18n = createI18n(language, ALL_CATALOGUES);
  const router = createMemoryRouter(typeof routes === 'function' ? routes(queryClient) : routes, { initialEntries: [path] });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.add({ root, container });
  await act(async () => {
    root.render(
      <AppProviders queryClient={queryClient} i18n={i18n}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
  });
  return { container, router, queryClient, i18n };
}

/** Unmounts everything rendered by the test; call in afterEach. */
export function cleanup(): void {
  for (const { root, container } of mounted) {
    act(() => root.unmount());
    container.remove();
  }
  mounted.clear();
}

/**
 * Retries `check` until it stops throwing, letting React and pending requests proceed in between. The default
 * allows for a route's lazy modules being transformed on their first import while a full run loads both cores
 * (a list test once missed 3 s so); a passing check returns at once, so only a failing one waits it out.
 */
export async function waitFor<T>(check: () => T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
}

const text = (element: Element): string => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The form control whose <label> reads `label` exactly. */
export function getByLabel<T extends HTMLElement = HTMLInputElement>(container: HTMLElement, label: string): T {
  const match = [...container.querySelectorAll('label')].find((element) => text(element) === label);
  const control = match?.htmlFor ? container.ownerDocument.getElementById(match.htmlFor) : match?.querySelector('input');
  if (!control) throw new Error(`no control labelled "${label}"`);
  return control as T;
}

/** The first element matching `selector` whose text is `name`. */
export function getByText<E extends Element = HTMLElement>(container: HTMLElement, selector: string, name: string): E {
  const match = [...container.querySelectorAll<E>(selector)].find((element) => text(element) === name);
  if (!match) throw new Error(`no ${selector} with text "${name}"; page text: ${text(container)}`);
  return match;
}

/** Types like a user: sets the value through the native setter (of an input or a text area) so React sees the change. */
export async function type(input: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const prototype = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  await act(async () => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.click();
  });
}

/** Chooses an option of a <select>. */
export async function select(element: HTMLSelectElement, value: string): Promise<void> {
  await act(async () => {
    element.value = value;
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The live password hints shown (PasswordHints), as hint id → 'true' (met) or 'false'. */
export function hintState(container: HTMLElement): Record<string, string | null> {
  return Object.fromEntries(
    [...container.querySelectorAll('[data-hint]')].map((item) => [item.getAttribute('data-hint'), item.getAttribute('data-met')]),
  );
}
