-- 0019 every sealed block knows its latest change time, and a change keeps its time.
--
-- 0018's floor for `since` reads each sealed block's latest recorded_at. A sealer call already running
-- when 0018 altered the table finished with the old function body and sealed its blocks without a
-- time. Such a block is never skipped (null means "unknown"), so no change is lost, but every later
-- `since` read starts at or before it. This fills them in, holding the sealing lock (0012) so that no
-- sealer runs meanwhile.
SELECT pg_advisory_xact_lock(change_log_block_lock_key());

UPDATE change_log_block_count b
   SET last_recorded_at = coalesce(
         (SELECT max(recorded_at) FROM change_log
           WHERE id >= b.block * change_log_block_size() AND id < (b.block + 1) * change_log_block_size()),
         '-infinity')
 WHERE b.last_recorded_at IS NULL;

-- The floor also assumes a sealed change's time never moves: recorded_at joins id and type as what an
-- update may not change (nothing updates it; this keeps it so).
CREATE OR REPLACE FUNCTION change_log_keep_identity() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a change keeps its id, type and recorded_at (change %)', OLD.id;
END
$$;

DROP TRIGGER change_log_keep_identity ON change_log;
CREATE TRIGGER change_log_keep_identity
  BEFORE UPDATE OF id, type, recorded_at ON change_log
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.type IS DISTINCT FROM NEW.type OR OLD.recorded_at IS DISTINCT FROM NEW.recorded_at)
  EXECUTE FUNCTION change_log_keep_identity();
