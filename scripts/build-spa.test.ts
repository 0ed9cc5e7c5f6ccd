// @vitest-environment node
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress, removeSourceMaps } from './build-spa.mjs';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'macula-build-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('the build folder before it is swapped in', () => {
  it('gets brotli and gzip copies of compressible files that decompress to the same bytes', () => {
    const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    build({ 'assets/app-1.js': script, 'assets/font-1.woff2': 'w'.repeat(5000), 'index.html': '<!doctype html>', 'assets/app-1.css': 'a{}'.repeat(1000) });
    expect(precompress(dir)).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/app-1.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(dir, 'assets/app-1.js.gz'))).toString()).toBe(script);
    // Fonts are compressed already; a tiny page is not worth a copy.
    expect(existsSync(join(dir, 'assets/font-1.woff2.br'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.gz'))).toBe(false);
  });

  it('keeps no source map', () => {
    build({ 'assets/app-1.js': 'x', 'assets/app-1.js.map': '{}', 'assets/app-1.css.map': '{}' });
    expect(removeSourceMaps(dir)).toBe(2);
    expect(existsSync(join(dir, 'assets/app-1.js'))).toBe(true);
    expect(existsSync(join(dir, 'assets/app-1.js.map'))).toBe(false);
  });
});
