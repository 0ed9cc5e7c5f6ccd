// `npm run generate`: bundle the split contract into generated/openapi.yaml, then let orval write
// hooks, models, zod schemas and MSW handlers from it. Everything under generated/ is derived.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const run = (name, args) => execFileSync(bin(name), args, { stdio: ['ignore', 'ignore', 'inherit'] });

const root = process.argv[2] ?? 'openapi/openapi.yaml';
mkdirSync('generated', { recursive: true });
run('redocly', ['bundle', root, '--output', 'generated/openapi.yaml']);
run('orval', ['--config', 'orval.config.ts']);
