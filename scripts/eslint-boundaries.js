// @ts-check
/**
 * Architecture boundaries of Macula Planner, as one local ESLint rule (`macula/boundaries`).
 *
 * Every import specifier (import/export … from, dynamic import() and require() with a literal,
 * TypeScript `import x = require()` and `import('x')` types) is resolved against the importing file:
 * relative paths, `@/…` (src/) and `@generated/…` (generated/); anything else is a package.
 * The checks, each reported under its own name:
 *
 * - axios-outside-api-client: axios is imported only by the orval mutator src/lib/api-client.ts
 *   (and its own test).
 * - pusher-outside-realtime-client: in the SPA, pusher-js is imported only by the realtime client
 *   src/lib/realtime.ts (and its own test); the server's tests may use it as a client.
 * - feature-imports-feature: src/features/<a>/ never imports src/features/<b>/; src/app composes features.
 * - domain-impure: src/domain/ imports no React, no Node (node: or builtin modules), nothing else under
 *   src/ and nothing from generated/, so the SPA and the server run the same pure code.
 * - src-imports-server: nothing under src/ imports server/.
 * - shared-imports-feature: shared folders (src/lib, src/components, src/config, src/domain, src/testing)
 *   import no feature.
 * - imports-app: only src/app (and the entry src/main.tsx) composes the application; features and shared folders never import src/app
 *   (a test file, and the test harness in src/testing, may render the app around what it tests).
 * - handler-queries: server/handlers/ parse the request, take the caller's Actor, call a service and answer;
 *   they import neither Kysely nor server/db/ (queries live in server/repositories/, rules in server/services/).
 * - service-imports-fastify: server/services/ and server/repositories/ know no HTTP framework: no fastify
 *   package and none of the request-bound modules (server/http/actor.ts, server/app.ts), so a service runs and
 *   is tested without a request.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

/** @typedef {import('eslint').Rule.RuleModule} RuleModule */
/** @typedef {import('eslint').Rule.RuleContext} RuleContext */
/** @typedef {import('estree').Node} EstreeNode */

/**
 * @typedef {object} BoundaryOptions
 * @property {string} [root] Project root; defaults to ESLint's working directory.
 * @property {string[]} [axiosAllowedIn] Root-relative files that may import axios.
 */

/**
 * A resolved import: either a file path inside the project (root-relative, `/`-separated)
 * or a package name.
 * @typedef {{ kind: 'path', path: string } | { kind: 'package', name: string, builtin: boolean }} Target
 */

const DEFAULT_AXIOS_ALLOWED_IN = ['src/lib/api-client.ts', 'src/lib/api-client.test.ts'];
const PUSHER_ALLOWED_IN = ['src/lib/realtime.ts', 'src/lib/realtime.test.ts'];
const SHARED_FOLDERS = ['lib', 'components', 'config', 'domain', 'testing'];
const TEST_FILE = /\.test\.tsx?$/;
// The server's HTTP framework: Fastify and its plugins.
const FASTIFY_PACKAGE = /^(?:fastify(?:-.+)?|@fastify\/.+)$/;
// Server modules bound to a request: what a service must not need.
const REQUEST_BOUND = ['server/http/actor', 'server/app'];
const BUILTINS = new Set(builtinModules);
// React itself and the React family (react-dom, react-i18next, @tanstack/react-query, …).
const REACT_PACKAGE = /^(?:@[^/]+\/)?react(?:-|$)/;

/**
 * @param {string} p
 * @returns {string}
 */
function toPosix(p) {
  return p.split(path.sep).join('/');
}

/**
 * Package name of a bare specifier: `axios/lib/x` → `axios`, `@scope/pkg/x` → `@scope/pkg`.
 * @param {string} specifier
 * @returns {string}
 */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * @param {string} specifier
 * @param {string} fromFile root-relative path of the importing file
 * @returns {Target}
 */
export function resolveSpecifier(specifier, fromFile) {
  if (specifier === '@' || specifier.startsWith('@/')) {
    return { kind: 'path', path: path.posix.join('src', specifier.slice(1)) };
  }
  if (specifier === '@generated' || specifier.startsWith('@generated/')) {
    return { kind: 'path', path: path.posix.join('generated', specifier.slice('@generated'.length)) };
  }
  if (specifier.startsWith('.')) {
    return { kind: 'path', path: path.posix.join(path.posix.dirname(fromFile), specifier) };
  }
  if (specifier.startsWith('node:')) {
    return { kind: 'package', name: specifier, builtin: true };
  }
  const name = packageName(specifier);
  return { kind: 'package', name, builtin: BUILTINS.has(name) || BUILTINS.has(specifier) };
}

/**
 * @param {string} file root-relative path
 * @param {string} folder root-relative folder
 * @returns {boolean}
 */
function isInside(file, folder) {
  return file === folder || file.startsWith(`${folder}/`);
}

/**
 * Name of the feature a path belongs to (`src/features/<name>/…`), if any.
 * @param {string} file
 * @returns {string | undefined}
 */
function featureOf(file) {
  const match = /^src\/features\/([^/]+)\//.exec(file);
  return match?.[1];
}

/**
 * @typedef {{ messageId: string, data: Record<string, string> }} Violation
 */

/**
 * All boundary violations of one import.
 * @param {string} fromFile root-relative path of the importing file
 * @param {string} specifier the import as written
 * @param {string[]} axiosAllowedIn
 * @returns {Violation[]}
 */
export function checkImport(fromFile, specifier, axiosAllowedIn = DEFAULT_AXIOS_ALLOWED_IN) {
  const target = resolveSpecifier(specifier, fromFile);
  /** @type {Violation[]} */
  const violations = [];

  if (target.kind === 'package' && target.name === 'axios' && !axiosAllowedIn.includes(fromFile)) {
    violations.push({ messageId: 'axios-outside-api-client', data: { specifier, allowed: axiosAllowedIn[0] } });
  }

  if (target.kind === 'package' && target.name === 'pusher-js' && isInside(fromFile, 'src') && !PUSHER_ALLOWED_IN.includes(fromFile)) {
    violations.push({ messageId: 'pusher-outside-realtime-client', data: { specifier, allowed: PUSHER_ALLOWED_IN[0] } });
  }

  const fromFeature = featureOf(fromFile);
  const toFeature = target.kind === 'path' ? featureOf(target.path) : undefined;
  if (fromFeature && toFeature && fromFeature !== toFeature) {
    violations.push({ messageId: 'feature-imports-feature', data: { specifier, from: fromFeature, to: toFeature } });
  }

  if (isInside(fromFile, 'src/domain')) {
    let reason;
    if (target.kind === 'package') {
      if (target.builtin) reason = 'a Node module';
      else if (REACT_PACKAGE.test(target.name)) reason = 'React';
    } else if (isInside(target.path, 'generated')) {
      reason = 'generated code';
    } else if (isInside(target.path, 'src') && !isInside(target.path, 'src/domain')) {
      reason = 'code under src/ outside src/domain';
    }
    if (reason) violations.push({ messageId: 'domain-impure', data: { specifier, reason } });
  }

  if (isInside(fromFile, 'src') && target.kind === 'path' && isInside(target.path, 'server')) {
    violations.push({ messageId: 'src-imports-server', data: { specifier } });
  }

  const sharedFolder = SHARED_FOLDERS.find((folder) => isInside(fromFile, `src/${folder}`));
  if (sharedFolder && target.kind === 'path' && isInside(target.path, 'src/features')) {
    violations.push({ messageId: 'shared-imports-feature', data: { specifier, folder: `src/${sharedFolder}` } });
  }

  const composesApp = fromFile === 'src/main.tsx' || isInside(fromFile, 'src/app') || isInside(fromFile, 'src/testing') || TEST_FILE.test(fromFile);
  if (isInside(fromFile, 'src') && !composesApp && target.kind === 'path' && isInside(target.path, 'src/app')) {
    violations.push({ messageId: 'imports-app', data: { specifier } });
  }

  if (isInside(fromFile, 'server/handlers') && !TEST_FILE.test(fromFile)) {
    const query = target.kind === 'package' ? target.name === 'kysely' : isInside(target.path, 'server/db');
    if (query) violations.push({ messageId: 'handler-queries', data: { specifier } });
  }

  if ((isInside(fromFile, 'server/services') || isInside(fromFile, 'server/repositories')) && !TEST_FILE.test(fromFile)) {
    const framework =
      target.kind === 'package' ? FASTIFY_PACKAGE.test(target.name) : REQUEST_BOUND.some((module) => target.path.replace(/\.ts$/, '') === module);
    if (framework) violations.push({ messageId: 'service-imports-fastify', data: { specifier } });
  }

  return violations;
}

/**
 * The string an import node names, when it is a literal.
 * @param {any} node a Literal, TemplateLiteral or TSLiteralType
 * @returns {string | undefined}
 */
function literalValue(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked ?? undefined;
  if (node.type === 'TSLiteralType') return literalValue(node.literal);
  return undefined;
}

/** @type {RuleModule} */
export const boundariesRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Enforce the architecture boundaries of Macula Planner (see README.md, "Boundaries").',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          axiosAllowedIn: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      'axios-outside-api-client':
        "[axios-outside-api-client] '{{specifier}}' may only be imported by {{allowed}} (the orval mutator); call the API through generated hooks.",
      'pusher-outside-realtime-client':
        "[pusher-outside-realtime-client] '{{specifier}}' may only be imported by {{allowed}} (the realtime client); listen through it.",
      'feature-imports-feature':
        "[feature-imports-feature] feature '{{from}}' must not import '{{specifier}}' from feature '{{to}}'; move shared code to src/lib, src/components or src/domain, or compose in src/app.",
      'domain-impure':
        "[domain-impure] src/domain must stay pure TypeScript shared with the server, but '{{specifier}}' is {{reason}}.",
      'src-imports-server':
        "[src-imports-server] code under src/ must not import '{{specifier}}' from server/; share code through src/domain or the contract.",
      'shared-imports-feature':
        "[shared-imports-feature] shared folder {{folder}} must not import '{{specifier}}' from src/features/; features depend on shared code, not the other way round.",
      'handler-queries':
        "[handler-queries] a handler must not import '{{specifier}}': queries belong in server/repositories/, rules in server/services/; the handler calls a service.",
      'service-imports-fastify':
        "[service-imports-fastify] server/services/ and server/repositories/ must not import '{{specifier}}': take the Actor and the context, never a request.",
      'imports-app':
        "[imports-app] '{{specifier}}' is in src/app, which composes features and imports them, never the other way round; move what is shared to src/config, src/lib or src/components.",
    },
  },

  create(context) {
    /** @type {BoundaryOptions} */
    const options = context.options[0] ?? {};
    const root = path.resolve(options.root ?? context.cwd);
    const axiosAllowedIn = options.axiosAllowedIn ?? DEFAULT_AXIOS_ALLOWED_IN;
    const relative = path.relative(root, context.filename);
    // Files outside the project (or virtual ones) have no place in the architecture.
    if (relative.startsWith('..') || path.isAbsolute(relative)) return {};
    const fromFile = toPosix(relative);

    /**
     * @param {any} sourceNode the node holding the specifier
     */
    function check(sourceNode) {
      const specifier = literalValue(sourceNode);
      if (specifier === undefined) return;
      for (const { messageId, data } of checkImport(fromFile, specifier, axiosAllowedIn)) {
        context.report({ node: sourceNode, messageId, data });
      }
    }

    /** @type {Record<string, (node: any) => void>} */
    const visitors = {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length > 0) {
          check(node.arguments[0]);
        }
      },
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type === 'TSExternalModuleReference') check(node.moduleReference.expression);
      },
      // typescript-eslint 8.5x+ names the specifier `source`; older versions only `argument`.
      TSImportType: (node) => check(node.source ?? node.argument),
    };
    return /** @type {import('eslint').Rule.RuleListener} */ (visitors);
  },
};

/** The local plugin, registered as `macula` in eslint.config.js. */
const plugin = {
  meta: { name: 'macula-boundaries', version: '1.0.0' },
  rules: { boundaries: boundariesRule },
};

export default plugin;
