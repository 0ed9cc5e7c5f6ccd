// Blueprint's icon-name table as the build makes it (vite-blueprint-icon-names.ts): the same names as change-case
// gives for every icon of the installed @blueprintjs/icons, and the same table as the module builds on import.
import { BlueprintIcons_16 } from '@blueprintjs/icons/lib/esm/generated/16px/blueprint-icons-16';
import { IconNames } from '@blueprintjs/icons';
import { IconNamesSet } from '@blueprintjs/icons/lib/esm/iconNames';
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

  it("builds the installed module's table unchanged, with neither change-case nor the enum", () => {
    const require = createRequire(import.meta.url);
    const id = require.resolve('@blueprintjs/icons/lib/esm/iconNames.js');
    const plugin = blueprintIconNames();
    const transform = plugin.transform as (this: unknown, code: string, id: string) => { code: string } | null;
    const changed = transform.call({ error: (message: string) => { throw new Error(message); } }, readFileSync(id, 'utf8'), id);
    expect(changed?.code).not.toMatch(/^import |change-case|BlueprintIcons_16/m);
    const built = new Function(`${changed!.code.replace(/export const /g, 'const ')}\nreturn { IconNames, IconNamesSet };`)() as {
      IconNames: Record<string, string>;
      IconNamesSet: Set<string>;
    };
    expect(built.IconNames).toEqual(IconNames);
    // The same order too: Blueprint's loadAll goes through the table's values.
    expect(Object.keys(built.IconNames)).toEqual(Object.keys(IconNames));
    expect(built.IconNamesSet).toEqual(IconNamesSet);
  });

  it('stops the build when the module no longer looks as expected', () => {
    const transform = blueprintIconNames().transform as (this: unknown, code: string, id: string) => unknown;
    const context = { error: (message: string) => { throw new Error(message); } };
    expect(() => transform.call(context, 'export const IconNames = {};', '/x/node_modules/@blueprintjs/icons/lib/esm/iconNames.js')).toThrow(/no longer has/);
    expect(transform.call(context, 'anything', '/x/src/other.js')).toBeNull();
  });
});
