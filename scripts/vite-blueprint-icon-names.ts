// Blueprint's icon loader (@blueprintjs/icons 6, lib/esm/iconNames.js) builds its table of icon names when it is
// first imported: for each of its some 700 icons, change-case's `pascalCase` and `snakeCase`, several regular
// expressions each, over an enum of every icon that is itself built on import. Every page imports it (Blueprint's
// <Icon> asks the loader whether a name is valid), and in a phone's first load (Lighthouse, 4× CPU slowdown) the
// loop took some 110 ms of the first script's evaluation. The table is the same on every load: this plugin builds
// it once, at build time, and puts it in place of the module as a JSON text (which V8 reads faster than the same
// object written as code), so neither change-case nor the enum is in the bundle. The names are made by two small
// functions with change-case's result for every name Blueprint has (lowercase words and digits joined by hyphens):
// scripts/vite-blueprint-icon-names.test.ts compares them with change-case, and the built table with Blueprint's,
// for each icon of the installed version. If a new Blueprint changes the module, the build stops here instead of
// quietly building a table Blueprint no longer builds.
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

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
/** What the module does, line by line, as this plugin builds it (see iconNamesTable). */
const EXPECTED = [
  'import { pascalCase, snakeCase } from "change-case";',
  'import { BlueprintIcons_16 } from "./generated/16px/blueprint-icons-16";',
  'for (const name of Object.values(BlueprintIcons_16)) {',
  'IconNamesNew[pascalCase(name)] = name;',
  'IconNamesLegacy[snakeCase(name).toUpperCase()] = name;',
  'export const IconNames = {',
  '...IconNamesNew,',
  '...IconNamesLegacy,',
  'export const IconNamesSet = new Set(Object.values(IconNames));',
];

/** The table the module builds: every icon by its PascalCase name, then by its SNAKE_CASE one. */
function iconNamesTable(iconNames: string[]): Record<string, string> {
  const pascal = Object.fromEntries(iconNames.map((name) => [kebabToPascal(name), name]));
  const legacy = Object.fromEntries(iconNames.map((name) => [kebabToSnake(name).toUpperCase(), name]));
  return { ...pascal, ...legacy };
}

/** Puts Blueprint's icon-name table, built at build time, in place of the module that builds it on import (see above). */
export function blueprintIconNames(): Plugin {
  return {
    name: 'macula:blueprint-icon-names',
    enforce: 'pre',
    transform(code, id) {
      if (!MODULE.test(id.split('?')[0])) return null;
      const missing = EXPECTED.find((line) => !code.includes(line));
      if (missing) {
        this.error(`${id} no longer has "${missing}" as scripts/vite-blueprint-icon-names.ts expects: check the plugin against the new version`);
      }
      // The icons' enum from the package's CommonJS build, beside the ES one (both generated from one source).
      const { BlueprintIcons_16 } = createRequire(id.split('?')[0])('../cjs/generated/16px/blueprint-icons-16.js') as {
        BlueprintIcons_16: Record<string, string>;
      };
      const table = JSON.stringify(iconNamesTable(Object.values(BlueprintIcons_16)));
      return {
        code: `export const IconNames = JSON.parse(${JSON.stringify(table)});\nexport const IconNamesSet = new Set(Object.values(IconNames));\n`,
        map: null,
      };
    },
  };
}
