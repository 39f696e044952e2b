-- 0017 a typed feed's page reads its rows through the (type, id) index, whatever plan is cached.
--
-- 0016 bounded the typed feeds' statements with `type = p_type AND id >= lo AND id < hi`, which ended
-- their counts' index scans. The page's own statement took the same form, and that form can also be
-- served by the primary key, filtering by type. PL/pgSQL caches plans per connection: after a few
-- pages of 1000, whose custom plans cost more than the generic one, a connection switches to the
-- generic plan, and that plan (which cannot know the type's share) walks the primary key. For a rare
-- type it then reads every change in the range: at 1.7M changes, after ten pages of 1000 documents,
-- one page of /trades/changes took 762 ms instead of 1.2 ms. /edikte/changes and /trades/changes are
-- the rare types in production. The page statement now uses row comparisons, as readChanges does,
-- which only the (type, id) index can serve. The counts keep 0016's form: their generic plan is an
-- index-only scan of (type, id).
--
-- Measured at 1.7M changes, 400 calls each (PL/pgSQL loop, warm cache): document pages of 100
-- 0.67-0.72 -> 0.32-0.37 ms (page 1) and 0.90-0.99 -> 0.54-0.61 ms (page 20), pages of 1000
-- 3.0-3.2 -> 1.2-1.3 ms; business pages unchanged (0.28-0.36 and 0.31 ms, 1.4-1.6 ms for 1000).

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
      -- Row comparisons, which only the (type, id) index can serve (see the header). Their upper bound
      -- does not end the scan, but past the safe bound there are only changes still in flight.
      SELECT '[' || coalesce(string_agg(c.entry_json, ','), '') || ']' INTO data
        FROM (SELECT id, entry_json FROM change_log WHERE (type, id) >= (p_type, from_id) AND (type, id) < (p_type, bound)
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
