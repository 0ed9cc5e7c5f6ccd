// Blueprint's icon loader (@blueprintjs/icons 6, lib/esm/iconNames.js) builds its table of icon names when it is
// first imported: for each of its some 600 icons, change-case's `pascalCase` and `snakeCase`, several regular
// expressions each. Every page imports it (Blueprint's <Icon> asks the loader whether a name is valid), and in a
// phone's first load (Lighthouse, 4× CPU slowdown) the loop took some 110 ms of the first script's evaluation.
// This plugin gives that one module two small functions in place of change-case's, with the same result for
// every name Blueprint has (lowercase words and digits joined by hyphens): scripts/vite-blueprint-icon-names.test.ts
// compares them with change-case for each icon of the installed version. If a new Blueprint changes the module,
// the build stops here instead of quietly going back to the slow loop.
import type { Plugin } from 'vite';

// Each function is copied into the module by its source text (`toString`), so it names nothing outside itself.
/** change-case's `pascalCase` for a hyphenated lowercase name: a word after the first that starts with a digit gets `_`. */
export function kebabToPascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word, index) => (index > 0 && word[0] >= '0' && word[0] <= '9' ? `_${word[0]}` : word[0].toUpperCase()) + word.slice(1).toLowerCase())
    .join('');
}

/** change-case's `snakeCase` for a hyphenated name: lowercase words joined by `_`. */
export function kebabToSnake(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
    .join('_');
}

const MODULE = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconNames\.js$/;
const IMPORT = 'import { pascalCase, snakeCase } from "change-case";';

/** Replaces change-case in Blueprint's icon-name table (see above). */
export function blueprintIconNames(): Plugin {
  return {
    name: 'macula:blueprint-icon-names',
    enforce: 'pre',
    transform(code, id) {
      if (!MODULE.test(id.split('?')[0])) return null;
      if (!code.includes(IMPORT)) {
        this.error(`${id} no longer imports change-case as scripts/vite-blueprint-icon-names.ts expects: check the plugin against the new version`);
      }
      return { code: code.replace(IMPORT, `const pascalCase = ${kebabToPascal.toString()};\nconst snakeCase = ${kebabToSnake.toString()};`), map: null };
    },
  };
}
