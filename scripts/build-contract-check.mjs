// @ts-check
/**
 * `npm run build:contract-check [-- --outfile FILE]`: the conformance check (scripts/contract-check/cli.ts) as
 * one ES module that runs with plain Node 20.19+ and nothing else: its few dependencies (yaml, Ajv with its
 * formats, fast-check, openapi-sampler) inlined and minified, our bundled contract (generated/openapi.yaml)
 * embedded, gzip-compressed, as the default `--contract`, the licences of what it inlines appended as a comment. A backend team
 * copies the file (default `dist-tools/contract-check.mjs`; `dist/` belongs to the SPA build, which replaces it
 * whole) and runs `node contract-check.mjs URL --login role=EMAIL:PASSWORD …`. `--reference` needs this
 * repository and is not part of what the file offers.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { outfile: { type: 'string', default: path.join(root, 'dist-tools/contract-check.mjs') } } });
const outfile = path.resolve(values.outfile);
const contractFile = path.join(root, 'generated/openapi.yaml');
const contract = readFileSync(contractFile, 'utf8');
const contractVersion = /^\s*version:\s*['"]?([^'"\n]+)/m.exec(contract.split('\npaths:')[0])?.[1] ?? 'unknown';
const contractHash = createHash('sha256').update(contract).digest('hex').slice(0, 12);

mkdirSync(path.dirname(outfile), { recursive: true });
const result = await build({
  entryPoints: [path.join(root, 'scripts/contract-check/cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  // gzip and base64: a third of the contract's 600 KB as text.
  define: { __CONTRACT_CHECK_EMBEDDED__: JSON.stringify({ gzip: gzipSync(contract, { level: 9 }).toString('base64'), name: `generated/openapi.yaml ${contractVersion} (sha256 ${contractHash})` }) },
  banner: {
    js: [
      '#!/usr/bin/env node',
      `// Macula Planner contract check, bundled by scripts/build-contract-check.mjs; contract ${contractVersion} (sha256 ${contractHash}) embedded.`,
      '// Run: node contract-check.mjs --help. Licences of the inlined packages at the end of this file.',
      // The inlined CommonJS packages call require() for Node's own modules.
      "import { createRequire as __contractCheckRequire } from 'node:module'; const require = __contractCheckRequire(import.meta.url);",
    ].join('\n'),
  },
});

// The packages inlined, each with its licence text (MIT and ISC ask for the notice to travel with the code).
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, '/'));
  if (!match) continue;
  const dir = path.join(root, input.replace(/\\/g, '/').slice(0, match.index + match[0].length));
  if (packages.has(dir) || !existsSync(path.join(dir, 'package.json'))) continue;
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
  packages.set(dir, { name: manifest.name, version: manifest.version, license: manifest.license, text: licenceFile ? readFileSync(path.join(dir, licenceFile), 'utf8').trim() : '' });
}
const notices = [...packages.values()]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((p) => `${p.name} ${p.version} (${p.license})\n${p.text}`.replace(/\*\//g, '* /'));
appendFileSync(outfile, `\n/*\nInlined packages and their licences:\n\n${notices.join('\n\n')}\n*/\n`);

const bytes = statSync(outfile).size;
console.log(`${path.relative(process.cwd(), outfile)}: ${(bytes / 1024).toFixed(0)} KiB (${bytes} bytes), ${packages.size} packages inlined: ${[...packages.values()].map((p) => p.name).join(', ')}`);
