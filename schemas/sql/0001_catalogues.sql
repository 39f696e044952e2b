-- 0001 catalogues: the reference tables that resolve the codes the registers use.
-- ÖNACE (2008 now; 2025 can be added under its own version), postal localities (zip code, place,
-- municipality, district, state), the 16 Firmenbuch courts, legal forms, function codes with the kinds
-- of representation power, the trades of GewO 1994 § 94 and the GISA trade catalogue.
-- Rows are loaded by `npm run migrate` from pipeline/catalogues/data (sources and licences there).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE oenace_class (
  version        text     NOT NULL CHECK (version IN ('2008', '2025')),
  code           text     NOT NULL,               -- 'C', 'C 10', 'C 10.7', 'C 10.71', 'C 10.71-1'
  level          smallint NOT NULL CHECK (level BETWEEN 1 AND 5),
  edv_code       text     NOT NULL,               -- 'C10711': the form without spaces and punctuation
  section        text     NOT NULL,
  parent_code    text,
  title_de       text     NOT NULL,
  short_title_de text,
  title_en       text,
  PRIMARY KEY (version, code)
);
CREATE UNIQUE INDEX oenace_class_edv ON oenace_class (version, edv_code);
CREATE INDEX oenace_class_level ON oenace_class (version, level, code);

CREATE TABLE postal_locality (
  id                bigserial PRIMARY KEY,
  zip_code          text NOT NULL,
  place             text NOT NULL,
  state             text NOT NULL,
  state_code        text NOT NULL,                -- 1..9 (Statistik Austria)
  district          text,
  district_code     text,                         -- 3-digit Bezirkskennziffer
  municipality      text,
  municipality_code text,                         -- 5-digit Gemeindekennziffer
  latitude          numeric(9, 6),
  longitude         numeric(9, 6)
);
CREATE INDEX postal_locality_zip ON postal_locality (zip_code);
CREATE INDEX postal_locality_place ON postal_locality (lower(place) text_pattern_ops);
CREATE INDEX postal_locality_municipality ON postal_locality (municipality_code);

CREATE TABLE court (
  code       text PRIMARY KEY,                    -- 3 digits, '007' Handelsgericht Wien
  name       text NOT NULL,
  state      text NOT NULL,
  iso_3166_2 text NOT NULL
);

CREATE TABLE legal_form (
  code         text PRIMARY KEY,                  -- Firmenbuch RECHTSFORM code: 'GES', 'AG', ...
  name         text NOT NULL,
  abbreviation text,
  elf_code     text,                              -- ISO 20275 entity legal form
  -- Suffixes that mark the form in company names ('GmbH', 'Ges.m.b.H.'), for name matching.
  name_suffixes text[] NOT NULL DEFAULT '{}'
);

CREATE TABLE function_code (
  code       text PRIMARY KEY,                    -- FKEN: 'GF', 'PR', 'GS', 'VM', ...
  text       text NOT NULL,                       -- FKENTEXT as the register writes it
  -- 'representation' (may represent: GF, VM, PR ...), 'holding' (GS), 'supervision', 'other'
  category   text NOT NULL DEFAULT 'other',
  -- 'catalogue' for codes we ship, 'register' for codes first seen in an extract
  source     text NOT NULL DEFAULT 'catalogue',
  first_seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE representation_kind (
  code text PRIMARY KEY,                          -- VART/CODE: 'E' Einzelvertretung
  text text NOT NULL,
  source text NOT NULL DEFAULT 'catalogue'
);

CREATE TABLE regulated_trade (
  ziffer            smallint PRIMARY KEY,          -- GewO 1994 § 94 Z 1..82
  name              text,
  craft             text,                          -- 'Handwerk', 'verbundenes Handwerk' or null
  in_force          boolean NOT NULL,
  repealed_by       text,
  reliability_check boolean                        -- listed in § 95 Abs. 1
);

-- GISA Gewerbeschlüssel catalogue (GetKatalogGewerbeschluessel), filled by the GISA pipeline.
CREATE TABLE trade (
  trade_key     text PRIMARY KEY,                  -- digits
  name          text NOT NULL,
  kind          text,                              -- GewerbeArt: 'reglementiert', 'frei', ...
  is_historical boolean NOT NULL DEFAULT false,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trade_name_trgm ON trade USING gin (lower(name) gin_trgm_ops);

-- Which version of each bundled catalogue file is loaded: a file is reloaded (delete + insert in one
-- transaction) only when its checksum changes, so loading twice writes nothing.
CREATE TABLE catalogue_load (
  name      text PRIMARY KEY,
  checksum  text NOT NULL,
  row_count integer NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);
