-- 0023 the trade register (GISA) as the pipeline crawls it: the licence record's remaining fields,
-- per-trade licence counts kept by the store, where the rolling re-check stands per company and which
-- register persons were looked up, the signed extracts fetched for the API, and the trade catalogue
-- merged with the bundled list of regulated trades (GewO 1994 § 94).

ALTER TABLE trade_license
  ADD COLUMN dormant_from      date,
  ADD COLUMN dormant_until     date,
  ADD COLUMN is_industrial     boolean,
  ADD COLUMN holder_person_id  text,                 -- natural holder: personId from name + birth date
  ADD COLUMN manager_name      text,                 -- gewerberechtlicher Geschäftsführer
  ADD COLUMN manager_person_id text,                 -- personId from name + birth date; linked when the person exists
  ADD COLUMN street            text,
  ADD COLUMN zip_code          text,
  ADD COLUMN city              text,
  -- The parsed licence as the parser returned it: the store compares it field by field.
  ADD COLUMN record            jsonb NOT NULL DEFAULT '{}';

-- Pages of /trades/{tradeKey}/licenses in gisa_zahl order: all, current only, or one zip code.
CREATE INDEX trade_license_key_page ON trade_license (trade_key, gisa_zahl);
CREATE INDEX trade_license_key_current ON trade_license (trade_key, gisa_zahl) WHERE ended_on IS NULL;
CREATE INDEX trade_license_key_zip ON trade_license (trade_key, zip_code, gisa_zahl);
CREATE INDEX trade_license_holder_person ON trade_license (holder_person_id) WHERE holder_person_id IS NOT NULL;
DROP INDEX trade_license_trade_key;

-- Licences per trade key, kept by the store in the transaction that changes them: /trades and the
-- unfiltered licence lists read totals here instead of counting up to hundreds of thousands of rows.
CREATE TABLE trade_license_count (
  trade_key text PRIMARY KEY,
  total     integer NOT NULL DEFAULT 0,
  active    integer NOT NULL DEFAULT 0
);

-- The catalogue: where a row came from, and the § 94 entry a regulated trade matches.
ALTER TABLE trade
  ADD COLUMN regulated_ziffer smallint,
  ADD COLUMN source text NOT NULL DEFAULT 'gisa' CHECK (source IN ('gisa', 'licence'));

-- The rolling re-check: active companies first, then the longest unchecked (checked_at NULL first).
CREATE TABLE gisa_company_check (
  fnr        text PRIMARY KEY,
  is_active  boolean NOT NULL,
  checked_at timestamptz,
  licences   integer NOT NULL DEFAULT 0
);
CREATE INDEX gisa_company_check_order ON gisa_company_check (is_active DESC, checked_at ASC NULLS FIRST, fnr);

-- Register persons (with a birth date) looked up by SearchPersonNat: each once.
CREATE TABLE gisa_person_check (
  person_id  text PRIMARY KEY,
  checked_at timestamptz NOT NULL DEFAULT now(),
  licences   integer NOT NULL DEFAULT 0
);

-- Signed extracts (GetAuszug) as the API served them: one per licence, language and kind, replaced
-- when a newer one is fetched; one fetched today is served without a new extract job.
CREATE TABLE trade_extract (
  gisa_zahl  text    NOT NULL,
  language   text    NOT NULL CHECK (language IN ('de', 'en')),
  historical boolean NOT NULL,
  content    bytea   NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (gisa_zahl, language, historical)
);

-- Where each requested extract stands, written by the extract job and read by the API while it waits:
-- 'pending' (started or retrying; `error` holds the last transport fault), 'done', or 'unknown' (GISA
-- does not know the GISA-Zahl). One row per licence, language, kind and day.
CREATE TABLE trade_extract_request (
  gisa_zahl  text    NOT NULL,
  language   text    NOT NULL,
  historical boolean NOT NULL,
  day        date    NOT NULL,
  state      text    NOT NULL CHECK (state IN ('pending', 'done', 'unknown')),
  error      text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (gisa_zahl, language, historical, day)
);
