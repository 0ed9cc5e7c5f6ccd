// npm run report:render -- <report.pdf> <page.png> [--page N] [--dpi D]
// Renders one page of a PDF (a treatment report, GET /treatments/{id}/treatment-report) to PNG with pdf.js and
// @napi-rs/canvas, to look at a report's layout without a PDF viewer. Page 1 at 150 dpi unless told.
import { readFileSync, writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

function usage(message: string): never {
  console.error(`${message}\nusage: npm run report:render -- <report.pdf> <page.png> [--page N] [--dpi D]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args.splice(at, 2)[1]);
  if (!Number.isFinite(value) || value <= 0) usage(`${name} needs a positive number`);
  return value;
};
const pageNumber = option('--page', 1);
const dpi = option('--dpi', 150);
const [input, output] = args;
if (!input || !output) usage('a PDF and a PNG path are needed');

const started = performance.now();
const document = await getDocument({ data: new Uint8Array(readFileSync(input)), isEvalSupported: false }).promise;
if (!Number.isInteger(pageNumber) || pageNumber > document.numPages) usage(`the PDF has ${document.numPages} page(s)`);
const page = await document.getPage(pageNumber);
const viewport = page.getViewport({ scale: dpi / 72 });
const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
const context = canvas.getContext('2d');
context.fillStyle = '#ffffff';
context.fillRect(0, 0, canvas.width, canvas.height);
// pdf.js draws on any 2D context of the canvas API; @napi-rs/canvas's is one (pdf.js uses it itself in Node).
await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
writeFileSync(output, canvas.toBuffer('image/png'));
await document.destroy();
console.log(`${output}: page ${pageNumber} of ${document.numPages}, ${canvas.width} × ${canvas.height} px, ${Math.round(performance.now() - started)} ms`);
