-- 0008 keeps the last normalised extract of each company beside the relational rows.
-- The store compares a new extract with it field by field to decide which fields changed (the
-- change row's changedFields) and to skip writes and change rows when nothing did.

ALTER TABLE company ADD COLUMN extract jsonb;
ALTER TABLE company ADD COLUMN kur text;              -- Unternehmensregister key, joins the BMF list
CREATE INDEX company_kur ON company (kur) WHERE kur IS NOT NULL;
