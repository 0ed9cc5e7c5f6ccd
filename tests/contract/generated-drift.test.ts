import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Regenerates into a scratch copy of the inputs and compares with the committed generated/:
// the working tree is never touched, so the test can run while someone edits.
const root = new URL('../..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'macula-generate-'));

function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return found;
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('generated/', () => {
  it('is what `npm run generate` makes from the contract', () => {
    // Orval's output depends on the tsconfig files too (how zod is imported).
    const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
    const inputs = ['openapi', 'orval.config.ts', 'redocly.yaml', 'package.json', 'scripts', 'src/lib'];
    for (const input of [...inputs, ...tsconfigs]) {
      cpSync(join(root, input), join(scratch, input), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['scripts/generate.mjs'], { cwd: scratch, stdio: 'pipe' });

    const committed = filesUnder(join(root, 'generated'));
    const fresh = filesUnder(join(scratch, 'generated'));
    expect([...fresh.keys()].sort()).toEqual([...committed.keys()].sort());
    const stale = [...fresh].filter(([file, text]) => committed.get(file) !== text).map(([file]) => file);
    expect(stale, 'run `npm run generate` and commit generated/').toEqual([]);
  });
});
