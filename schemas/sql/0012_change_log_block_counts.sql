-- 0012 change log block counts: exact feed totals without counting up to 1000 x pageSize rows.
--
-- A feed page reports how many changes follow the cursor below the safe bound (0002), exact up to
-- 1000 x pageSize. Counting them row by row is what made a feed page expensive. But ids below the safe
-- bound never change, so the log is cut into blocks of 1024 ids, and once a block lies wholly below the
-- bound ("sealed") we store running totals: how many changes of each type have an id before the block's
-- end. The changes in any run of sealed blocks are then the difference of two rows, and a reader counts
-- only the partial blocks at either end directly (pipeline/store/changeLog.ts).
--
-- Sealed blocks form a prefix 0, 1, 2, ...: a running total needs the one before it, and the safe
-- bound only moves up. change_log_seal_blocks() extends the prefix; readers call it when they find it
-- behind the bound, and whoever reads past its end counts the rest directly, so a lagging prefix costs
-- time, never exactness.
--
-- Change rows are never updated in place and nothing deletes them today. Should something delete
-- them (retention), a trigger drops the running totals from the first affected block on, in the same
-- transaction, under a lock that keeps sealing out until that transaction ends.

CREATE FUNCTION change_log_block_size() RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT 1024::bigint $$;

-- Held by the one sealer at a time, and by a transaction that deletes change rows until it ends.
-- Tag 'CJ' = 0x434A next to 0002's 0x4348 (in-flight ids) and 0x4349 (gate).
CREATE FUNCTION change_log_block_lock_key() RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT x'434A'::bigint << 48 $$;

CREATE TABLE change_log_block_count (
  block    bigint PRIMARY KEY,  -- ids block * 1024 .. block * 1024 + 1023
  -- Changes with an id below (block + 1) * 1024, in all and per type.
  total    bigint NOT NULL,
  business bigint NOT NULL,
  document bigint NOT NULL,
  edikt    bigint NOT NULL,
  trade    bigint NOT NULL
);

-- Seals up to max_blocks more blocks (all sealable ones when null); returns how many blocks are sealed
-- now, or null when another session is sealing or deleting change rows at the moment.
CREATE FUNCTION change_log_seal_blocks(max_blocks bigint DEFAULT NULL) RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  size        bigint := change_log_block_size();
  bound       bigint;
  first_block bigint;
  end_block   bigint;
BEGIN
  -- The block's rows are read in a statement after the bound, which needs a fresh snapshot per statement.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RETURN NULL;
  END IF;
  IF NOT pg_try_advisory_xact_lock(change_log_block_lock_key()) THEN
    RETURN NULL;
  END IF;
  bound := change_log_safe_bound();
  SELECT coalesce(max(block) + 1, 0) INTO first_block FROM change_log_block_count;
  end_block := bound / size;  -- blocks before this one lie wholly below the bound
  IF max_blocks IS NOT NULL THEN
    end_block := least(end_block, first_block + max_blocks);
  END IF;
  IF end_block <= first_block THEN
    RETURN first_block;
  END IF;

  INSERT INTO change_log_block_count (block, total, business, document, edikt, trade)
  SELECT b.block,
         base.total    + sum(coalesce(c.total, 0))    OVER running,
         base.business + sum(coalesce(c.business, 0)) OVER running,
         base.document + sum(coalesce(c.document, 0)) OVER running,
         base.edikt    + sum(coalesce(c.edikt, 0))    OVER running,
         base.trade    + sum(coalesce(c.trade, 0))    OVER running
    FROM generate_series(first_block, end_block - 1) AS b (block)
   CROSS JOIN (
         SELECT p.total, p.business, p.document, p.edikt, p.trade
           FROM change_log_block_count p WHERE p.block = first_block - 1
          UNION ALL
         SELECT 0, 0, 0, 0, 0 WHERE first_block = 0
         ) AS base
    -- Blocks whose ids all rolled back have no rows here and carry the totals over unchanged.
    LEFT JOIN (
         SELECT l.id / size AS block,
                count(*) AS total,
                count(*) FILTER (WHERE l.type = 'business') AS business,
                count(*) FILTER (WHERE l.type = 'document') AS document,
                count(*) FILTER (WHERE l.type = 'edikt') AS edikt,
                count(*) FILTER (WHERE l.type = 'trade') AS trade
           FROM change_log l
          WHERE l.id >= first_block * size AND l.id < end_block * size
          GROUP BY 1
         ) AS c ON c.block = b.block
  WINDOW running AS (ORDER BY b.block);
  RETURN end_block;
END
$$;

-- Deleting change rows: wait for a running sealer, keep new ones out until the transaction ends, and
-- drop every running total that counted a deleted row. Under REPEATABLE READ the drop would not see
-- totals sealed after the transaction's snapshot, so deletes must run READ COMMITTED.
CREATE FUNCTION change_log_block_count_hold() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'change rows can only be deleted under READ COMMITTED (change_log_block_count must see every sealed block)';
  END IF;
  PERFORM pg_advisory_xact_lock(change_log_block_lock_key());
  RETURN NULL;
END
$$;

CREATE FUNCTION change_log_block_count_forget() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM change_log_block_count;
  ELSE
    DELETE FROM change_log_block_count
     WHERE block >= (SELECT min(id) / change_log_block_size() FROM deleted_changes);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER change_log_block_count_hold
  BEFORE DELETE OR TRUNCATE ON change_log
  FOR EACH STATEMENT EXECUTE FUNCTION change_log_block_count_hold();

CREATE TRIGGER change_log_block_count_forget
  AFTER DELETE ON change_log
  REFERENCING OLD TABLE AS deleted_changes
  FOR EACH STATEMENT EXECUTE FUNCTION change_log_block_count_forget();

CREATE TRIGGER change_log_block_count_forget_all
  AFTER TRUNCATE ON change_log
  FOR EACH STATEMENT EXECUTE FUNCTION change_log_block_count_forget();

-- An id is a consumer's cursor and is counted in its block under its type: neither may change.
CREATE FUNCTION change_log_keep_identity() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a change keeps its id and type (change %)', OLD.id;
END
$$;

CREATE TRIGGER change_log_keep_identity
  BEFORE UPDATE OF id, type ON change_log
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.type IS DISTINCT FROM NEW.type)
  EXECUTE FUNCTION change_log_keep_identity();

-- Seal what is already there, so the first feed reads after deploying do not pay for it.
SELECT change_log_seal_blocks();
