// The replacement of change-case in Blueprint's icon-name table (vite-blueprint-icon-names.ts) gives the same
// names as change-case for every icon of the installed @blueprintjs/icons, and the built table is the same.
import { BlueprintIcons_16 } from '@blueprintjs/icons/lib/esm/generated/16px/blueprint-icons-16';
import { IconNames } from '@blueprintjs/icons';
import { pascalCase, snakeCase } from 'change-case';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { blueprintIconNames, kebabToPascal, kebabToSnake } from './vite-blueprint-icon-names';

const names = Object.values(BlueprintIcons_16) as string[];

describe("Blueprint's icon names without change-case", () => {
  it('names every icon as change-case does', () => {
    expect(names.length).toBeGreaterThan(500);
    for (const name of names) {
      expect(kebabToPascal(name), name).toBe(pascalCase(name));
      expect(kebabToSnake(name).toUpperCase(), name).toBe(snakeCase(name).toUpperCase());
    }
  });

  it('follows change-case where a word starts with a digit', () => {
    for (const name of ['heat-grid', 'th-list', 'arrow-2', 'layout-3-columns', 'a1-b']) {
      expect(kebabToPascal(name), name).toBe(pascalCase(name));
      expect(kebabToSnake(name), name).toBe(snakeCase(name));
    }
  });

  it("builds the installed module's table unchanged", async () => {
    const require = createRequire(import.meta.url);
    const id = require.resolve('@blueprintjs/icons/lib/esm/iconNames.js');
    const plugin = blueprintIconNames();
    const transform = plugin.transform as (this: unknown, code: string, id: string) => { code: string } | null;
    const changed = transform.call({ error: (message: string) => { throw new Error(message); } }, readFileSync(id, 'utf8'), id);
    expect(changed?.code).not.toContain('change-case');
    // The loop of the changed module, run over the same icons, builds the table Blueprint exports.
    const body = changed!.code.replace(/^import .*$/gm, '').replace(/export const /g, 'const ');
    const table = new Function('BlueprintIcons_16', `${body}\nreturn IconNames;`)(BlueprintIcons_16);
    expect(table).toEqual(IconNames);
  });

  it('stops the build when the module no longer looks as expected', () => {
    const transform = blueprintIconNames().transform as (this: unknown, code: string, id: string) => unknown;
    const context = { error: (message: string) => { throw new Error(message); } };
    expect(() => transform.call(context, 'export const IconNames = {};', '/x/node_modules/@blueprintjs/icons/lib/esm/iconNames.js')).toThrow(/no longer imports change-case/);
    expect(transform.call(context, 'anything', '/x/src/other.js')).toBeNull();
  });
});
