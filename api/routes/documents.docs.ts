// OpenAPI entry of the document download (documents.ts): the document in its own type, or the
// contract's 503 sentence when the register cannot be reached.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accessResponses, curlSample, problemResponses, registerExample, TAGS } from '../openapi/common.js';
import { REGISTER_UNAVAILABLE } from './documents.js';

const documentXmlExample = `<?xml version="1.0" encoding="UTF-8"?>
<JAB xmlns="http://www.justiz.gv.at/JAB" VERSION="4.0">
  <FNR>030435h</FNR>
  <BILANZSTICHTAG>2024-12-31</BILANZSTICHTAG>
  <WAEHRUNG>EUR</WAEHRUNG>
  <BILANZ>
    <AKTIVA>4812350.17</AKTIVA>
    <ANLAGEVERMOEGEN>1204800.00</ANLAGEVERMOEGEN>
    <UMLAUFVERMOEGEN>3589150.17</UMLAUFVERMOEGEN>
  </BILANZ>
  <GUV>
    <UMSATZERLOESE>9874215.30</UMSATZERLOESE>
    <JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG>441359.92</JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG>
  </GUV>
</JAB>`;

/** The first bytes of a filed PDF (the answer is the whole file, binary). */
const documentPdfExample = '%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n';

export function registerDocumentDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  registry.registerPath({
    method: 'get', path: '/documents/download/{documentKey}', tags: [TAGS.documents.name], summary: 'Document as PDF or XML', operationId: 'downloadDocument',
    description: 'A filed document (annual account, as PDF or as filed XML) in its own type: the stored copy when the pipeline holds one, ' +
      'otherwise fetched from the register. Document keys come from the profile (`annualAccountDocuments`) and the document feed.',
    ...curlSample('GET', '/documents/download/030435_0070202507812_000___000_30_41873215_XML', { output: '030435_0070202507812_000___000_30_41873215_XML.xml' }),
    request: {
      params: z.object({
        documentKey: z.string().meta({ description: 'The document key; its suffix (`_XML`, `_PDF`) tells the type.', example: '030435_0070202507812_000___000_30_41873215_XML' }),
      }),
    },
    responses: {
      200: {
        description: 'The document in its own type (Content-Disposition: attachment with the key as file name)',
        content: {
          'application/pdf': { schema: z.string().meta({ format: 'binary' }), examples: example('DocumentPdf', 'An annual account as PDF (its first bytes)', documentPdfExample) },
          'application/xml': { schema: z.string(), examples: example('DocumentXml', 'An annual account as filed XML (abridged)', documentXmlExample) },
        },
      },
      503: {
        description: 'The register document service is unreachable; retry later',
        headers: { 'Retry-After': { description: 'Seconds to wait before retrying (60).', schema: { type: 'integer' } } },
        content: {
          'text/plain': {
            schema: z.literal(REGISTER_UNAVAILABLE),
            examples: example('RegisterUnavailable', 'Always exactly this sentence, not JSON', REGISTER_UNAVAILABLE),
          },
        },
      },
      ...problemResponses(404), ...accessResponses(),
    },
  });
}
