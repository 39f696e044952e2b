// The API's DocumentSource (runtime/documentSource.ts) over the Firmenbuch adapter and the document
// store. The entry points build it, so the API imports no pipeline code.
import type { Sql } from '../../runtime/db.js';
import type { DocumentSource } from '../../runtime/documentSource.js';
import { keepFetchedContent } from '../store/documentStore.js';
import type { FirmenbuchClient } from './firmenbuchClient.js';

export function firmenbuchDocumentSource(sql: Sql, register: Pick<FirmenbuchClient, 'document'>): DocumentSource {
  return {
    async fetch(key) {
      try {
        const { content, contentType } = await register.document(key);
        return { content, contentType };
      } catch (err) {
        // The register's answer to a key it does not know; any other failure means it could not answer.
        if ((err as Error).name === 'FirmenbuchFaultError' && (err as { kind?: string }).kind === 'invalidKey') return null;
        throw err;
      }
    },
    keep: (key, content) => keepFetchedContent(sql, key, content),
  };
}
