-- 0014 feed entries rendered once, when the change is recorded.
--
-- change_feed_page (0013) built every entry's JSON on every read: to_char of the timestamp and to_json
-- of the texts and the field array cost ~4.5 us a row, 4-5 ms of a page of 1000 (measured at 640k
-- companies, 1.7M changes: a page of 1000 from stored text 1.1-1.3 ms, built 4.4-5.7 ms). An entry
-- is a pure function of its row, so a trigger renders it into entry_json when the row is written, and
-- the feed concatenates stored text. The trigger runs on updates too, so the text cannot go stale
-- (nothing updates changes today; 0012 forbids changing id and type).

ALTER TABLE change_log ADD COLUMN entry_json text;

-- The ALTER holds change_log exclusively until this migration commits: no change is written between
-- the backfill and the trigger.
UPDATE change_log c
   SET entry_json = change_log_entry_json(c.id, c.type, c.fnr, c.recorded_at, c.action, c.changed_fields, c.vnr, c.document_key, c.edikt_id, c.gisa_zahl);
ALTER TABLE change_log ALTER COLUMN entry_json SET NOT NULL;

CREATE FUNCTION change_log_render_entry() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry_json := change_log_entry_json(NEW.id, NEW.type, NEW.fnr, NEW.recorded_at, NEW.action, NEW.changed_fields,
                                          NEW.vnr, NEW.document_key, NEW.edikt_id, NEW.gisa_zahl);
  RETURN NEW;
END
$$;

-- BEFORE triggers fire in name order: this one after change_log_assign_id has set NEW.id (and after
-- the column defaults have set recorded_at).
CREATE TRIGGER change_log_render_entry
  BEFORE INSERT OR UPDATE ON change_log
  FOR EACH ROW EXECUTE FUNCTION change_log_render_entry();

-- As 0013's, with the range's order spelled out: without it the plan cached for the function could
-- be a sequential scan (a generic plan knows neither the range nor the cap, and with a LIMIT any rows
-- will do), which on a small log measured 4-5 ms a call against 0.1 ms through the index, and would be
-- ruinous on a large one. Ordered by the index's keys, the index scan is the plan whatever the stats.
CREATE OR REPLACE FUNCTION change_log_count_range(p_type text, lo bigint, hi bigint, cap bigint) RETURNS bigint
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  n bigint;
BEGIN
  IF p_type IS NULL THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE id >= lo AND id < hi ORDER BY id LIMIT cap) r;
  ELSE
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE (type, id) >= (p_type, lo) AND (type, id) < (p_type, hi) ORDER BY type, id LIMIT cap) r;
  END IF;
  RETURN n;
END
$$;

-- As 0013's, reading the stored entries, and without ORDER BY in string_agg: that sorted the page's
-- rows again (1.4 ms of a page of 1000) although the subquery hands them over in id order already. A
-- plain aggregate reads its input in the order the subquery's ORDER BY ... LIMIT produces it, which is
-- how PostgreSQL documents ordered input for aggregates (a sorted subquery); the feed tests compare
-- whole pages, so a change in that would fail them.
CREATE OR REPLACE FUNCTION change_feed_page(
  p_type text, p_after bigint, p_since timestamptz, p_fnr text,
  p_offset bigint, p_limit integer, p_cap bigint,
  p_seek_min_offset bigint DEFAULT 2048, p_seal_blocks bigint DEFAULT 16,
  OUT total bigint, OUT data text)
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  size         bigint := change_log_block_size();
  bound        bigint;
  lo           bigint := coalesce(p_after, 0) + 1;
  from_id      bigint := lo;
  skip         bigint := p_offset;
  behind       boolean := false;
  filter       text;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'change_feed_page needs READ COMMITTED: its rows must be read after the safe bound';
  END IF;
  bound := change_log_safe_bound();
  -- From here on every statement sees every change below the bound.

  IF p_fnr IS NULL AND p_since IS NULL THEN
    -- One statement, so one snapshot: the sealed prefix, the edge counts, the running totals and the
    -- seek agree with each other even if a delete (0012's trigger drops totals) commits meanwhile.
    SELECT CASE WHEN b.first_block < b.end_block
                THEN b.head + change_log_running_total(p_type, b.end_block - 1) - b.base
                     + change_log_count_range(p_type, b.end_block * size, bound, p_cap)
                ELSE change_log_count_range(p_type, lo, bound, p_cap) END,
           CASE WHEN b.seek THEN sb.start_block * size ELSE lo END,
           -- The page's first row is the first whose running total exceeds base + offset - head.
           CASE WHEN b.seek THEN b.base + p_offset - b.head - change_log_running_total(p_type, sb.start_block - 1) ELSE p_offset END,
           b.behind
      INTO total, from_id, skip, behind
      FROM (SELECT v.first_block, v.end_block, v.behind, h.head,
                   change_log_running_total(p_type, v.first_block - 1) AS base,
                   (v.first_block < v.end_block AND p_offset >= p_seek_min_offset AND h.head <= p_offset) AS seek
              FROM (SELECT (lo + size - 1) / size AS first_block, least(bound / size, s.sealed) AS end_block, bound / size > s.sealed AS behind
                      FROM (SELECT coalesce(max(block) + 1, 0) AS sealed FROM change_log_block_count) s) v
             CROSS JOIN LATERAL (
                   SELECT CASE WHEN v.first_block < v.end_block THEN change_log_count_range(p_type, lo, v.first_block * size, NULL) ELSE 0 END AS head) h
           ) b
      LEFT JOIN LATERAL (
           SELECT coalesce(min(c.block), b.end_block) AS start_block
             FROM change_log_block_count c
            WHERE c.block >= b.first_block AND c.block < b.end_block
              AND CASE p_type WHEN 'business' THEN c.business WHEN 'document' THEN c.document
                              WHEN 'edikt' THEN c.edikt WHEN 'trade' THEN c.trade ELSE c.total END > b.base + p_offset - b.head) sb ON b.seek;

    IF p_type IS NULL THEN
      SELECT '[' || coalesce(string_agg(c.entry_json, ','), '') || ']' INTO data
        FROM (SELECT id, entry_json FROM change_log WHERE id >= from_id AND id < bound ORDER BY id LIMIT p_limit OFFSET skip) c;
    ELSE
      SELECT '[' || coalesce(string_agg(c.entry_json, ','), '') || ']' INTO data
        FROM (SELECT id, entry_json FROM change_log WHERE (type, id) >= (p_type, from_id) AND (type, id) < (p_type, bound)
               ORDER BY type, id LIMIT p_limit OFFSET skip) c;
    END IF;
  ELSE
    -- Filtered feeds: a statement per filter combination, planned for it (an fnr has few changes and
    -- its own index; `fnr = $1 OR $1 IS NULL` would keep any plan from using it).
    filter := CASE WHEN p_type IS NULL THEN 'id >= $2 AND id < $3' ELSE '(type, id) >= ($1, $2) AND (type, id) < ($1, $3)' END
           || CASE WHEN p_fnr IS NULL THEN '' ELSE ' AND fnr = $4' END
           || CASE WHEN p_since IS NULL THEN '' ELSE ' AND recorded_at >= $5' END;
    EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM change_log WHERE %s LIMIT $6) r', filter)
      INTO total USING p_type, lo, bound, p_fnr, p_since, p_cap;
    EXECUTE format(
      'SELECT ''['' || coalesce(string_agg(c.entry_json, '',''), '''') || '']''
         FROM (SELECT id, entry_json FROM change_log WHERE %s ORDER BY %s LIMIT $6 OFFSET $7) c',
      filter, CASE WHEN p_type IS NULL THEN 'id' ELSE 'type, id' END)
      INTO data USING p_type, lo, bound, p_fnr, p_since, p_limit, p_offset;
  END IF;

  -- Sealing only saves later reads work (this one counted the unsealed rest row by row), so a failure
  -- here, say on a read-only replica, must not fail the read.
  IF behind THEN
    BEGIN
      PERFORM change_log_seal_blocks(p_seal_blocks);
    EXCEPTION WHEN OTHERS THEN
      NULL;
    END;
  END IF;
  total := least(total, p_cap);
END
$$;
