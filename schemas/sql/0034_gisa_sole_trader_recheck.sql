-- 0034 the GISA re-check of licences held without a company link (sole traders the register names):
-- no company lookup reaches them again, so they are re-checked by GISA-Zahl, the longest unchecked first.
-- last_crawled_at is now written at every lookup (also when nothing changed); licences stored before
-- were last looked up no earlier than they were last written.
UPDATE trade_license SET last_crawled_at = updated_at WHERE last_crawled_at IS NULL;

CREATE INDEX trade_license_sole_recheck ON trade_license (last_crawled_at ASC NULLS FIRST, gisa_zahl) WHERE fnr IS NULL;
