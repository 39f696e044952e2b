// Text of a PDF document (pdf-parse 2.x, which bundles a current pdf.js; 1.x ships pdf.js 1.10 with a
// known vulnerability). Page count is capped so one huge document cannot stall a worker.
import { PDFParse } from 'pdf-parse';
import { UnrecoverableInputError } from '../jobs/errors.js';

export class PdfTextError extends UnrecoverableInputError {}

export const MAX_PDF_PAGES = 200;

export async function extractPdfText(bytes: Uint8Array, maxPages = MAX_PDF_PAGES): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText({ first: maxPages });
    return { text: result.text.trim(), pages: result.total };
  } catch (err) {
    throw new PdfTextError(`unreadable PDF: ${(err as Error).message}`, undefined, { cause: err });
  } finally {
    await parser.destroy();
  }
}
