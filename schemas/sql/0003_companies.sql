-- 0003 companies and the people around them, as the Firmenbuch extract (AUSZUG_V2) describes them.
--
-- company holds the current state per canonical fnr (digits without leading zeros + check letter);
-- names, addresses and register entries keep their history by vnr (Vollzugsnummer). The register's
-- person blocks (PER) are resolved per company by their PNR to one of three parties: a natural
-- person (person_id per the contract), a registered company (PE_FNR) or an unregistered organisation.
-- Functions (FUN) and holdings (FKEN 'GS' with capital and paid-in amount) link a party to a company.

CREATE TABLE company (
  fnr                   text PRIMARY KEY,
  fnr_check_letter_ok   boolean NOT NULL DEFAULT true, -- false: kept as the register gave it, reported
  name                  text NOT NULL,
  legal_form_code       text,                          -- no FK: the register may use codes we do not know yet
  legal_form_text       text,
  court_code            text,
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
  euid                  text,
  seat                  text,
  municipality_code     text,                          -- ORTNR/CODE (5-digit Gemeindekennziffer)
  municipality_text     text,
  capital_amount        numeric(20, 2),
  capital_currency      text,
  business_purpose      text,
  oenace_numeric_code   text,                          -- primary industry code as digits ('10711')
  register_checksum     text,                          -- PRUEFSUMME of the last extract
  extract_queried_at    timestamptz,                   -- ABFRAGEZEITPUNKT of the last extract
  first_seen_at         timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  last_crawled_at       timestamptz
);
CREATE INDEX company_legal_form ON company (legal_form_code);
CREATE INDEX company_court ON company (court_code);
CREATE INDEX company_municipality ON company (municipality_code);

CREATE TABLE company_name (
  fnr        text    NOT NULL REFERENCES company (fnr) ON DELETE CASCADE,
  vnr        text    NOT NULL,
  name       text    NOT NULL,
  is_current boolean NOT NULL,
  PRIMARY KEY (fnr, vnr, name)
);
CREATE INDEX company_name_lower ON company_name (lower(name) text_pattern_ops);

CREATE TABLE company_address (
  fnr          text    NOT NULL REFERENCES company (fnr) ON DELETE CASCADE,
  vnr          text    NOT NULL,
  position     smallint NOT NULL DEFAULT 0,
  is_current   boolean NOT NULL,
  line         text,                                   -- STELLE one-liner where the register sends that shape
  street       text,
  house_number text,
  staircase    text,
  door         text,
  delivery_note text,                                  -- ZUSTELLANWEISUNG
  zip_code     text,
  city         text,
  country      text,                                   -- ISO 3166 alpha-3, 'AUT'
  deliverable  boolean,
  PRIMARY KEY (fnr, vnr, position)
);
CREATE INDEX company_address_zip ON company_address (zip_code) WHERE is_current;

CREATE TABLE company_oenace (
  fnr        text    NOT NULL REFERENCES company (fnr) ON DELETE CASCADE,
  version    text    NOT NULL DEFAULT '2008',
  code       text    NOT NULL,                         -- 'C 10.71-1'
  is_primary boolean NOT NULL DEFAULT false,
  source     text    NOT NULL,                         -- where the assignment came from
  PRIMARY KEY (fnr, version, code)
);
CREATE INDEX company_oenace_code ON company_oenace (version, code);

CREATE TABLE register_entry (
  fnr               text NOT NULL REFERENCES company (fnr) ON DELETE CASCADE,
  vnr               text NOT NULL,
  executed_on       date,                              -- VOLLZUGSDATUM
  court_code        text,
  court_text        text,
  az                text,                              -- Aktenzeichen '818 019 Fr 641/93 i'
  application_texts text[] NOT NULL DEFAULT '{}',      -- ANTRAGSTEXT
  received_on       date,                              -- EINGELANGTAM
  PRIMARY KEY (fnr, vnr)
);

CREATE TABLE person (
  person_id    text PRIMARY KEY,                       -- firstname-lastname-birthdate, 'x' for unknown parts
  first_name   text,
  last_name    text,
  title_before text,
  title_after  text,
  birth_date   date,
  name_norm    text NOT NULL,                          -- lower-case 'firstname lastname' for search
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX person_name_norm ON person (name_norm text_pattern_ops);
CREATE INDEX person_last_name ON person (lower(last_name) text_pattern_ops);

-- Legal-entity persons without a company number (foreign companies, public bodies, ...).
CREATE TABLE organisation (
  organisation_id text PRIMARY KEY,                    -- stable hash of the normalised designation
  name            text NOT NULL,
  foreign_register text,                               -- AUSL_HG / AUSL_FN where given
  foreign_number  text,
  country         text,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One PER block of one company's extract, resolved to exactly one kind of party.
CREATE TABLE company_party (
  fnr             text NOT NULL REFERENCES company (fnr) ON DELETE CASCADE,
  pnr             text NOT NULL,                       -- register person key within the company, trimmed
  kind            text NOT NULL CHECK (kind IN ('person', 'company', 'organisation')),
  person_id       text REFERENCES person (person_id),
  related_fnr     text,                                -- PE_FNR: the party is this registered company
  organisation_id text REFERENCES organisation (organisation_id),
  address         jsonb,
  PRIMARY KEY (fnr, pnr),
  CHECK ((kind = 'person') = (person_id IS NOT NULL)),
  CHECK ((kind = 'company') = (related_fnr IS NOT NULL)),
  CHECK ((kind = 'organisation') = (organisation_id IS NOT NULL))
);
CREATE INDEX company_party_person ON company_party (person_id) WHERE person_id IS NOT NULL;
CREATE INDEX company_party_related ON company_party (related_fnr) WHERE related_fnr IS NOT NULL;

CREATE TABLE company_function (
  fnr                 text NOT NULL,
  pnr                 text NOT NULL,
  function_code       text NOT NULL,                   -- FKEN
  vnr                 text NOT NULL,                   -- data group that carries this state
  function_text       text,                            -- FKENTEXT
  representation_code text,                            -- VART/CODE ('E' Einzelvertretung)
  representation_text text,
  since               date,
  until               date,
  is_current          boolean NOT NULL,
  texts               text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (fnr, pnr, function_code, vnr),
  FOREIGN KEY (fnr, pnr) REFERENCES company_party (fnr, pnr) ON DELETE CASCADE
);
CREATE INDEX company_function_code ON company_function (function_code) WHERE is_current;

CREATE TABLE holding (
  fnr        text NOT NULL,                            -- the company held
  pnr        text NOT NULL,                            -- the holder, a party of that company
  vnr        text NOT NULL,
  capital    numeric(20, 2),                           -- contribution (Stammeinlage)
  paid_in    numeric(20, 2),                           -- EINBEZAHLT
  currency   text,
  since      date,
  until      date,
  is_current boolean NOT NULL,
  PRIMARY KEY (fnr, pnr, vnr),
  FOREIGN KEY (fnr, pnr) REFERENCES company_party (fnr, pnr) ON DELETE CASCADE
);
