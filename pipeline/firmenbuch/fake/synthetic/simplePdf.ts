// A minimal PDF writer (text pages, standard Helvetica, WinAnsiEncoding): enough for pdf.js to extract text.

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, '?')})`;
}

/** A standards-conforming PDF 1.4 with one text page per entry of `pages` (lines of Latin-1 text). */
export function simplePdf(pages: readonly (readonly string[])[], info: { title: string; created: string }): Buffer {
  const objects: string[] = [];
  const pageRefs: string[] = [];
  const firstPage = 4;
  pages.forEach((lines, i) => {
    const content = `BT /F1 11 Tf 14 TL 56 780 Td ${lines.map((l) => `${pdfString(l)} Tj T*`).join(' ')} ET`;
    const pageId = firstPage + i * 2;
    pageRefs.push(`${pageId} 0 R`);
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  const infoId = firstPage + pages.length * 2;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[infoId] = `<< /Title ${pdfString(info.title)} /Producer (at-company-data corpus generator) /CreationDate (D:${info.created.replace(/-/g, '')}120000Z) >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
