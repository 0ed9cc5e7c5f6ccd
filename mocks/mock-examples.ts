// Prism answers a call with the operation's first example, whatever the id in the path: every patient card
// would show Maria Schneider, and each of her sessions the same session. On `npm run dev:mock` this middleware
// picks, before the proxy to Prism, the contract's own example that belongs to the ids asked for, by setting
// Prism's `Prefer: example=<name>` header. Nothing is invented here: an id without an example of its own gets
// Prism's first example, and a caller's own `Prefer` header is left alone.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { parse } from 'yaml';

type Json = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ExampleRoute {
  /** Matches `/api` + the path template; the groups are the path's ids. */
  pattern: RegExp;
  examples: { name: string; ownId: unknown; text: string; summary: string; filters: [string, string][] }[];
}

/** The query a summary names in parentheses, e.g. "IT admins (role=clinic_it_admins)" → [[role, clinic_it_admins]]. */
const filtersOf = (summary: unknown): [string, string][] =>
  typeof summary === 'string' ? [...summary.matchAll(/\b(\w+)=([\w-]+)/g)].map((match) => [match[1], match[2]]) : [];

/** GET operations with more than one JSON example of their success answer, as patterns to match calls. */
export function exampleRoutes(contract: Json): ExampleRoute[] {
  const resolve = (node: unknown): Json => {
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref !== 'string') return node as Json;
    return resolve(ref.slice(2).split('/').reduce<unknown>((at, part) => (at as Json)[part], contract));
  };
  const routes: ExampleRoute[] = [];
  for (const [template, item] of Object.entries(contract.paths as Record<string, Json>)) {
    const operation = item.get as Json | undefined;
    const responses = (operation?.responses ?? {}) as Record<string, unknown>;
    const success = Object.keys(responses).find((code) => code.startsWith('2'));
    if (!success) continue;
    const content = (resolve(responses[success]).content ?? {}) as Record<string, Json>;
    const examples = Object.entries((content['application/json']?.examples ?? {}) as Record<string, unknown>);
    if (examples.length < 2) continue;
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/?]+)');
    routes.push({
      pattern: new RegExp(`^/api${source}(?:\\?|$)`),
      examples: examples.map(([name, example]) => {
        const value = resolve(example).value as Json | undefined;
        const summary = resolve(example).summary;
        return {
          name,
          ownId: (value?.data as Json | undefined)?.id,
          text: JSON.stringify(value ?? null),
          summary: typeof summary === 'string' ? summary : '',
          filters: filtersOf(summary),
        };
      }),
    });
  }
  return routes;
}

/**
 * The example for a call, or null for Prism's first one: the example that is the resource asked for
 * (`data.id` is the last id of the path) wins over one that names every id of the path, in its value or its
 * summary. A list's
 * example whose summary names a query (e.g. "(status=deleting)") answers a call with that query.
 */
export function exampleFor(routes: ExampleRoute[], url: string): string | null {
  for (const route of routes) {
    const match = route.pattern.exec(url);
    if (!match) continue;
    const ids = match.slice(1).map((part) => decodeURIComponent(part)).filter((part) => UUID.test(part));
    if (!ids.length) {
      const query = new URLSearchParams(url.split('?')[1] ?? '');
      const named = route.examples.find(
        (example) => example.filters.length > 0 && example.filters.every(([key, value]) => query.getAll(key).includes(value)),
      );
      return named?.name ?? null;
    }
    const own = route.examples.find((example) => example.ownId === ids[ids.length - 1]);
    if (own) return own.name;
    // An empty list names no id in its value: its summary may (e.g. "No sessions yet (patient 18dae2f4-…)").
    return route.examples.find((example) => ids.every((id) => example.text.includes(`"${id}"`) || example.summary.includes(id)))?.name ?? null;
  }
  return null;
}

/** The routes of the bundled contract; none (Prism's first examples) when it cannot be read whole. */
function readRoutes(contractFile: string, warn: (message: string) => void): ExampleRoute[] {
  try {
    return exampleRoutes(parse(readFileSync(contractFile, 'utf8')) as Json);
  } catch (error) {
    // openapi/openapi.yaml before the first `npm run generate` refers to other files: not resolvable here.
    warn(`[dev:mock] examples by id are off (${contractFile}: ${(error as Error).message}); run npm run generate`);
    return [];
  }
}

/** The getRealtimeSettings example without a realtime service: the mock has none, so the SPA does not connect. */
export const REALTIME_EXAMPLE = 'notConfigured';

/**
 * The example Prism is asked for by a call through the dev mock, or null for Prism's own choice: the profile
 * example to sign in as (both the sign-in answer and the profile; every getProfile example has a signIn example
 * of the same name), realtime not configured, and for other GET calls the example of the ids or query asked for.
 */
export function preferredExample(routes: ExampleRoute[], method: string, url: string, profileExample: string): string | null {
  const path = url.split('?')[0];
  if (method === 'POST' && path === '/api/sign-in') return profileExample;
  if (method !== 'GET') return null;
  if (path === '/api/user/profile') return profileExample;
  if (path === '/api/realtime/settings') return REALTIME_EXAMPLE;
  return exampleFor(routes, url);
}

/**
 * `profileExample`: the name of the getProfile example the SPA signs in as (MACULA_MOCK_PROFILE, e.g. itAdmin
 * for the /admin screens), through the sign-in form as after a reload; the physician when unset. With
 * Prism's dynamic mode (`-d`) too, these answers are the contract's examples (a generated profile would have
 * any role); the other calls are generated.
 */
export function mockExamples(contractFile: string, profileExample = 'physician'): Plugin {
  let routes: ExampleRoute[] | undefined;
  return {
    name: 'macula-mock-examples',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.method && request.url?.startsWith('/api/') && !request.headers.prefer) {
          routes ??= readRoutes(contractFile, (message) => server.config.logger.warn(message));
          const name = preferredExample(routes, request.method, request.url, profileExample);
          if (name) request.headers.prefer = `example=${name}`;
        }
        next();
      });
    },
  };
}
