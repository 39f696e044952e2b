-- 0005 the three other registers: trade licences (GISA), court notices (Ediktsdatei) and the finance
-- ministry's list of bogus companies (Scheinunternehmen, § 8 SBBG).
--
-- A court notice is linked to a company only with recorded evidence and confidence: the debtor's FN
-- field when the register fills it, otherwise a name + address match that a person may review.
-- A bogus-company listing may carry several publications (Kundmachungen) over time; a listing the
-- ministry takes off the list keeps its rows with removed_at set.

CREATE TABLE trade_license (
  gisa_zahl        text PRIMARY KEY,
  fnr              text,                               -- JurPerson/FBNummer, canonical
  trade_key        text,                               -- GewerbeSchluessel
  wording          text,                               -- Gewerbewortlaut
  authority_code   text,
  authority_name   text,
  effective_from   date,                               -- RechtswirksamAb
  ended_on         date,                               -- EndigungDatum: present = licence ended
  is_dormant       boolean NOT NULL DEFAULT false,
  holder_kind      text CHECK (holder_kind IN ('natural', 'legal')),
  holder_name      text,
  location         jsonb,                              -- Standort/Postadresse
  history          jsonb NOT NULL DEFAULT '[]',        -- <Historisch> entries, newest first
  raw              jsonb,
  first_seen_at    timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  last_crawled_at  timestamptz
);
CREATE INDEX trade_license_fnr ON trade_license (fnr) WHERE fnr IS NOT NULL;
CREATE INDEX trade_license_trade_key ON trade_license (trade_key);

CREATE TABLE court_notice (
  edikt_id          text PRIMARY KEY,                  -- AZKey: the only key stable across deletions
  unid              text,                              -- Domino @unid of the current document
  aktenzeichen      text,
  court_code        text,
  court_name        text,
  state_code        text,                              -- Ediktsdatei scheme (0 Wien ... 8 Vbg, A, 9)
  proceeding_code   text,                              -- Verfahrenskurztext: KV, SRV, SVME, ...
  proceeding_text   text,
  debtor_type       text,                              -- 'J' legal person, 'N' natural person
  debtor_name       text,
  debtor_fnr_raw    text,                              -- Schuldner_Akt_FBNr as given
  debtor_address    jsonb,
  fnr               text,                              -- linked company, canonical
  link_evidence     text CHECK (link_evidence IN ('register-fn', 'name-address', 'name', 'manual')),
  link_confidence   numeric(3, 2) CHECK (link_confidence BETWEEN 0 AND 1),
  first_published_on date,
  last_published_on  date,
  opened_on         date,
  blocks            jsonb NOT NULL DEFAULT '[]',       -- Bausteine: [{publishedOn, name, text, decidedOn}]
  is_open           boolean NOT NULL DEFAULT true,
  deleted_at        timestamptz,                       -- Deletions view: Dat_Loeschung
  raw               jsonb,
  first_seen_at     timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX court_notice_fnr ON court_notice (fnr) WHERE fnr IS NOT NULL;

CREATE TABLE bogus_company_listing (
  listing_key     text PRIMARY KEY,                    -- normalised FN | UID | name+address+decision date
  name            text NOT NULL,
  address         text,
  fnr             text,                                -- canonical, when the list gives a valid FN
  uid             text,
  ur_code         text,                                -- Kennziffer des Unternehmensregisters
  birth_date      date,                                -- natural persons only
  data_warnings   text[] NOT NULL DEFAULT '{}',        -- swapped columns, bad check letters, ...
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  removed_at      timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bogus_company_listing_fnr ON bogus_company_listing (fnr) WHERE fnr IS NOT NULL;

CREATE TABLE bogus_company_publication (
  listing_key        text NOT NULL REFERENCES bogus_company_listing (listing_key) ON DELETE CASCADE,
  published_on       date NOT NULL,                    -- Veröffentlichung
  decision_final_on  date,                             -- Rechtskraft Bescheid
  deemed_since       date,                             -- Zeitpunkt als Scheinunternehmen
  list_version       text,                             -- 'Stand:' footer of the list that showed it
  PRIMARY KEY (listing_key, published_on)
);
