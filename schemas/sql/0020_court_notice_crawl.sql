-- 0020 court notices as the Ediktsdatei crawler (pipeline/edikte) keeps them.
--
-- court_notice.fnr keeps its meaning for every reader (profile, screener, export, person profile): the
-- company a notice is asserted to concern, set only by a link with confidence >= 0.9 (api-decisions.md).
-- Weaker candidates stay on the notice for review and never set a flag. A natural-person debtor carries
-- the personId the register's rule gives (name and birth date). A notice the register deletes keeps
-- only its key and deleted_at (the IWG terms require the data to go): debtor, blocks and raw document are
-- erased, and so are the snapshots its earlier changes recorded.

ALTER TABLE court_notice
  ADD COLUMN debtor_fnr          text,                    -- Schuldner_Akt_FBNr canonical, when its check letter fits
  ADD COLUMN debtor_birth_date   date,                    -- natural persons
  ADD COLUMN debtor_person_id    text,                    -- natural persons with a birth date: firstname-lastname-birthdate
  ADD COLUMN link_candidates     jsonb NOT NULL DEFAULT '[]',  -- [{fnr, name, evidence, confidence}] below the threshold
  ADD COLUMN data_warnings       text[] NOT NULL DEFAULT '{}', -- fnr-check-letter, fnr-unreadable, date-unreadable:<field>, ...
  ADD COLUMN source_modified_at  timestamptz,             -- @modified of the document: If-Modified-Since of the next fetch
  ADD COLUMN last_fetched_at     timestamptz;             -- when the document last came with content (HTTP 200)

COMMENT ON COLUMN court_notice.fnr IS 'linked company: set only by a link with confidence >= 0.9';

CREATE INDEX court_notice_unid ON court_notice (unid) WHERE unid IS NOT NULL;
CREATE INDEX court_notice_person ON court_notice (debtor_person_id) WHERE debtor_person_id IS NOT NULL;
-- Re-linking after a company changed finds the notices that name it by FN or by name core.
CREATE INDEX court_notice_debtor_fnr ON court_notice (debtor_fnr) WHERE debtor_fnr IS NOT NULL;
CREATE INDEX court_notice_debtor_core ON court_notice (search_core(search_norm(debtor_name)))
  WHERE debtor_type = 'J' AND deleted_at IS NULL;
