-- 0016 typed feeds bound their index scans on both ends, and a feed page counts its head once.
--
-- The typed feeds (/businesses/changes, /documents/changes, ...) read change_log through its (type, id)
-- index with row comparisons: (type, id) >= (p_type, lo) AND (type, id) < (p_type, hi). A btree scan
-- stops at the first key past a required bound, but the upper row comparison does not end the scan
-- (the leading column, type, is still equal), so every count of a range read on to the last row of
-- its type: 706 rows counted in 117 ms through 9,426 index pages, against 0.18 ms and 10 pages with
-- type = p_type AND id >= lo AND id < hi. At 1.7M changes that made a consumer polling near the head
-- of /businesses/changes wait 8 ms, a far-behind page of 1000 documents 43 ms, and a deep page
-- (page >= 21 of 100) 4.3 s: there the head count also ran once for every block row the seek's lateral
-- scan read, because the subquery holding it was flattened into that scan. The global feed, on the
-- primary key, was never affected.

CREATE OR REPLACE FUNCTION change_log_count_range(p_type text, lo bigint, hi bigint, cap bigint) RETURNS bigint
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  n bigint;
BEGIN
  IF p_type IS NULL THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE id >= lo AND id < hi ORDER BY id LIMIT cap) r;
  ELSE
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE type = p_type AND id >= lo AND id < hi ORDER BY type, id LIMIT cap) r;
  END IF;
  RETURN n;
END
$$;

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
    -- `sealed` is the count of the range's whole sealed blocks; the head (rows before the first of
    -- them) is counted only when the total or a seek needs it, the tail only up to the cap.
    SELECT CASE WHEN h.first_block < h.end_block
                THEN CASE WHEN h.sealed >= p_cap THEN p_cap
                          ELSE h.head + h.sealed
                               + change_log_count_range(p_type, h.end_block * size, bound, greatest(p_cap - h.head - h.sealed, 0)) END
                ELSE change_log_count_range(p_type, lo, bound, p_cap) END,
           CASE WHEN h.seek THEN sb.start_block * size ELSE lo END,
           -- The page's first row is the first whose running total exceeds base + offset - head.
           CASE WHEN h.seek THEN h.base + p_offset - h.head - change_log_running_total(p_type, sb.start_block - 1) ELSE p_offset END,
           h.behind
      INTO total, from_id, skip, behind
      FROM (SELECT b.*, (b.first_block < b.end_block AND p_offset >= p_seek_min_offset AND b.head <= p_offset) AS seek
              FROM (SELECT t.*,
                           CASE WHEN t.first_block < t.end_block AND (t.sealed < p_cap OR p_offset >= p_seek_min_offset)
                                THEN change_log_count_range(p_type, lo, t.first_block * size, NULL) ELSE 0 END AS head
                      FROM (SELECT v.first_block, v.end_block, v.behind,
                                   coalesce(change_log_block_total(p_type, bf), 0) AS base,
                                   CASE WHEN v.first_block < v.end_block
                                        THEN change_log_block_total(p_type, be) - coalesce(change_log_block_total(p_type, bf), 0)
                                        ELSE 0 END AS sealed
                              FROM (SELECT (lo + size - 1) / size AS first_block, least(bound / size, s.sealed) AS end_block, bound / size > s.sealed AS behind
                                      FROM (SELECT coalesce(max(block) + 1, 0) AS sealed FROM change_log_block_count) s) v
                              LEFT JOIN change_log_block_count bf ON bf.block = v.first_block - 1
                              LEFT JOIN change_log_block_count be ON be.block = v.end_block - 1) t) b
            -- A fence: h's head count is read once, not again for each block row the lateral scan below reads.
            OFFSET 0
           ) h
      LEFT JOIN LATERAL (
           SELECT coalesce(min(c.block), h.end_block) AS start_block
             FROM change_log_block_count c
            WHERE c.block >= h.first_block AND c.block < h.end_block
              AND CASE p_type WHEN 'business' THEN c.business WHEN 'document' THEN c.document
                              WHEN 'edikt' THEN c.edikt WHEN 'trade' THEN c.trade ELSE c.total END > h.base + p_offset - h.head) sb ON h.seek;

    IF p_type IS NULL THEN
      SELECT '[' || coalesce(string_agg(c.entry_json, ','), '') || ']' INTO data
        FROM (SELECT id, entry_json FROM change_log WHERE id >= from_id AND id < bound ORDER BY id LIMIT p_limit OFFSET skip) c;
    ELSE
      SELECT '[' || coalesce(string_agg(c.entry_json, ','), '') || ']' INTO data
        FROM (SELECT id, entry_json FROM change_log WHERE type = p_type AND id >= from_id AND id < bound
               ORDER BY type, id LIMIT p_limit OFFSET skip) c;
    END IF;
  ELSE
    -- Filtered feeds: a statement per filter combination, planned for it (an fnr has few changes and
    -- its own index; `fnr = $1 OR $1 IS NULL` would keep any plan from using it).
    filter := CASE WHEN p_type IS NULL THEN 'id >= $2 AND id < $3' ELSE 'type = $1 AND id >= $2 AND id < $3' END
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
