-- 0004 documents of the Urkundensammlung and the annual accounts parsed from them.
--
-- document: one row per register document KEY with its metadata; content is stored once fetched
-- (annual accounts always, others on demand), PDF text is kept for search.
-- annual_account: one row per filing (document type 48 in XML) with the metadata of
-- ../shared/spec/key-figures.md, the raw XML (so a parser fix can re-derive every figure without
-- refetching) and the 47 figures. The figures are a jsonb object keyed by the JSON keys of
-- schemas/keyFigures.ts; jsonb numbers are Postgres numerics, so values stay exact decimals, and the
-- list of figures lives in one place in code. Read models (indexer/) derive typed columns from it.

CREATE TABLE document (
  document_key        text PRIMARY KEY,
  fnr                 text NOT NULL,
  az                  text,
  document_type_code  text,                            -- DOKUMENTART: '48' annual accounts, '42' articles
  document_type_text  text,
  document_date       date,                            -- DOKUMENTENDATUM
  balance_sheet_date  date,                            -- STICHTAG
  size_class          text,                            -- GKL: W, K, M, G (J on old filings)
  vnr                 text,
  filed_on            date,                            -- EINGEREICHT
  content_type        text,                            -- application/pdf | application/xml
  file_extension      text,
  size_bytes          bigint,
  remark              text,                            -- BEMERKUNG
  content             bytea,
  content_fetched_at  timestamptz,
  text_content        text,                            -- PDF text extracted for search
  first_seen_at       timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_fnr ON document (fnr, document_date DESC);

CREATE TABLE annual_account (
  document_key       text PRIMARY KEY REFERENCES document (document_key) ON DELETE CASCADE,
  fnr                text    NOT NULL,
  document_date      date,                             -- balance-sheet date (GJ/ENDE, GESCHAEFTSJAHR/ENDE)
  fiscal_year_start  date,
  fiscal_year_end    date,
  currency           text,
  unit               text,                             -- legacy 'E'/'TSD', JAb 4.0 EINHEIT
  unit_factor        numeric NOT NULL DEFAULT 1,
  size_class         text,
  format             text    NOT NULL CHECK (format IN ('legacy', 'jab4')),
  pnl_method         text    CHECK (pnl_method IN ('GKV', 'UKV')),
  kind               text,                             -- JAB, JAB-ANLAGE12, ... / ABSCHLUSSART
  filed_on           date,
  has_positions      boolean NOT NULL,
  figures            jsonb   NOT NULL CHECK (jsonb_typeof(figures) = 'object'),
  warnings           text[]  NOT NULL DEFAULT '{}',
  raw_xml            text    NOT NULL,
  parser_version     integer NOT NULL,
  parsed_at          timestamptz NOT NULL DEFAULT now()
);
-- latestKeyFigures follows the filing with the latest documentDate.
CREATE INDEX annual_account_latest ON annual_account (fnr, document_date DESC NULLS LAST, document_key);
