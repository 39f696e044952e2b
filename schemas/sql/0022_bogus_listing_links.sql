-- 0022 the BMF list of bogus companies (Scheinunternehmen) linked to companies with evidence and
-- confidence, as court notices are (api-decisions.md: only links with confidence >= 0.9 set a flag).
--
-- bogus_company_listing.fnr keeps its meaning for every reader (profile, screener, export: a company is
-- a Scheinunternehmen while a listing with its fnr has no removed_at), and is now set only by an
-- asserted link: the list's own FN (evidence register-fn) or its name plus address (name-address).
-- The FN as the list spells it, and weaker candidates for review, are kept beside it.

ALTER TABLE bogus_company_listing
  ADD COLUMN kind             text NOT NULL DEFAULT 'legal' CHECK (kind IN ('legal', 'natural')),
  ADD COLUMN listed_fnr       text,                    -- normalised FN found in the row (check letter may be wrong)
  ADD COLUMN zip_code         text,                    -- from Anschrift "PLZ Ort, Straße Nr"
  ADD COLUMN link_evidence    text CHECK (link_evidence IN ('register-fn', 'name-address', 'name', 'manual')),
  ADD COLUMN link_confidence  numeric(3, 2) CHECK (link_confidence BETWEEN 0 AND 1),
  ADD COLUMN link_candidates  jsonb NOT NULL DEFAULT '[]',  -- [{fnr, name, evidence, confidence}], never a flag
  ADD COLUMN list_version     text;                    -- 'Stand:' of the last list that showed it

COMMENT ON COLUMN bogus_company_listing.fnr IS 'linked company: set only by a link with confidence >= 0.9';

-- Linking by name looks companies up by the core of their normalised name (search_core(search_norm()),
-- migrations 0009/0011), the same key name search uses; without this index each lookup reads every company.
CREATE INDEX company_name_core ON company (search_core(search_norm(name)));
