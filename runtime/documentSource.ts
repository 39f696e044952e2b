// What the API needs to serve a document the pipeline has not stored. The entry points build it from
// the register's adapter and the document store (pipeline/firmenbuch/documentSource.ts), so the API
// imports neither.

/** A document as the register returned it. */
export interface FetchedDocument {
  /** Null when the register answered without the document's bytes. */
  content: Buffer | null;
  contentType: string | null;
}

export interface DocumentSource {
  /**
   * The document from the register: null when the register knows no document with this key. Rejects
   * when the register cannot be reached, throttles, times out or answers nonsense.
   */
  fetch(key: string): Promise<FetchedDocument | null>;
  /**
   * Keeps a fetched copy for the next request, only while the stored document has no content yet: the
   * pipeline's copy may carry the PDF's extracted text, which this one must not wipe.
   */
  keep(key: string, content: Buffer): Promise<void>;
}
