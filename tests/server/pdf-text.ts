// The text of a PDF as a reader gets it (pdf.js, the legacy build for Node): one string per page, the text
// runs joined by single spaces, in Unicode's compatibility form (NFKC): a font that draws µ (micro) and μ (mu)
// with one glyph gives one of them back, and a no-break space reads as a space.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  // pdf.js takes the buffer over; the caller keeps its bytes.
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      const runs = content.items.map((item) => ('str' in item ? item.str : ''));
      pages.push(runs.join(' ').normalize('NFKC').replace(/\s+/g, ' '));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
