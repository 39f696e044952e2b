-- 0030 an annual account (XML) whose figures could not be read says so: the parser's reason stays on
-- its document until a later parse succeeds (npm run reparse retries these, or a new fetch). The
-- profile shows such a filing as parseStatus "failed" instead of a filing without figures.

ALTER TABLE document ADD COLUMN parse_error text;

-- Filings that failed before this column existed: their XML was kept, but no figures were stored.
UPDATE document d SET parse_error = 'did not parse (the reason was not recorded before migration 0030; npm run reparse retries it)'
 WHERE d.document_type_code = '48' AND d.content IS NOT NULL
   AND coalesce(d.content_type, '') NOT LIKE '%pdf%' AND d.document_key NOT LIKE '%\_PDF'
   AND NOT EXISTS (SELECT 1 FROM annual_account a WHERE a.document_key = d.document_key);

-- What npm run reparse walks through: the failed ones only.
CREATE INDEX document_parse_failed ON document (document_key) WHERE parse_error IS NOT NULL;
