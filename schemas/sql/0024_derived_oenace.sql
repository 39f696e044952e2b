-- 0024 derived industry codes. The register carries no ÖNACE code, so the pipeline derives them from the
-- business purpose and the company's trade keys (pipeline/oenace): company_oenace rows with source
-- 'derived' keep the classifier's confidence and evidence (the words and trade keys behind the code).
-- Search counts an assignment when its confidence is at or above the threshold in
-- schemas/oenaceAssignment.ts; a row without confidence was given by a source, not derived, and counts.

ALTER TABLE company_oenace
  ADD COLUMN confidence numeric(3, 2) CHECK (confidence BETWEEN 0 AND 1),
  ADD COLUMN evidence   jsonb,
  ADD CONSTRAINT company_oenace_derived CHECK (source <> 'derived' OR (confidence IS NOT NULL AND evidence IS NOT NULL));
