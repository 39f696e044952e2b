-- 0025 a document whose content the register answers with more bytes than the pipeline accepts
-- (FIRMENBUCH_MAX_DOCUMENT_MB, docs/limits-and-safety.md) keeps its metadata and says why its content
-- is missing, so that listings stop enqueueing it again. The job that met it fails with the same reason.

ALTER TABLE document ADD COLUMN content_refused text;
