-- 0013 change feed pages in one round trip, as JSON.
--
-- A feed page used to take three statements from the API (the safe bound, then the page and its
-- total), and the page's rows were decoded into objects and serialised again. This function does all
-- of it in one call and answers the page as JSON text in the feed's entry shape (api-decisions.md).
--
-- Correctness rests on 0002's rule: the rows must be read by a statement whose snapshot is taken after
-- the bound. A VOLATILE function under READ COMMITTED takes a fresh snapshot for every statement it
-- runs, so computing the bound in its first statement and reading in later ones keeps the rule; under
-- REPEATABLE READ all statements would share the transaction's first snapshot, so it refuses to run.
--
-- Totals follow 0012: the partial blocks at either end of (after, bound) row by row, the sealed blocks
-- between from their running totals; with an fnr or since filter, row by row up to the cap. Deep pages
-- (offset >= p_seek_min_offset) start from the sealed block holding their first row.

-- One change as a feed entry: the common fields, then its type's own key, as compact JSON text in the
-- key order JSON.stringify gives the presented entry. Concatenated rather than built: json_build_object
-- cost ~5 us a row and puts spaces around every colon and comma; this is ~1.5 us and inlined. type and
-- action are CHECK-constrained words; every free text goes through to_json, which escapes it.
CREATE FUNCTION change_log_entry_json(
  id bigint, type text, fnr text, recorded_at timestamptz, action text, changed_fields text[],
  vnr text, document_key text, edikt_id text, gisa_zahl text) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT '{"id":' || id || ',"type":"' || type || '","fnr":' || coalesce(to_json(fnr)::text, 'null')
      -- As JavaScript's toISOString writes it: UTC, milliseconds, Z.
      || ',"recordedAt":"' || to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","action":"' || action || '","changedFields":' || to_json(changed_fields)::text
      || CASE type
           WHEN 'business' THEN ',"vnr":' || coalesce(to_json(vnr)::text, 'null')
           WHEN 'document' THEN ',"documentKey":' || coalesce(to_json(document_key)::text, 'null')
           WHEN 'edikt' THEN ',"ediktId":' || coalesce(to_json(edikt_id)::text, 'null')
           ELSE ',"gisaZahl":' || coalesce(to_json(gisa_zahl)::text, 'null')
         END
      || '}'
$$;

-- Changes of one type (or all, p_type null) with lo <= id < hi. Typed ranges are row comparisons on
-- (type, id): with `type = $1` a generic plan walks the primary key and filters by type.
CREATE FUNCTION change_log_count_range(p_type text, lo bigint, hi bigint, cap bigint) RETURNS bigint
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  n bigint;
BEGIN
  IF p_type IS NULL THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE id >= lo AND id < hi LIMIT cap) r;
  ELSE
    SELECT count(*) INTO n FROM (SELECT 1 FROM change_log WHERE (type, id) >= (p_type, lo) AND (type, id) < (p_type, hi) LIMIT cap) r;
  END IF;
  RETURN n;
END
$$;

-- The running total of a feed at the end of a sealed block (0 before block 0).
CREATE FUNCTION change_log_running_total(p_type text, p_block bigint) RETURNS bigint
  LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT CASE p_type WHEN 'business' THEN b.business WHEN 'document' THEN b.document
                                      WHEN 'edikt' THEN b.edikt WHEN 'trade' THEN b.trade ELSE b.total END
                     FROM change_log_block_count b WHERE b.block = p_block), 0)
$$;

CREATE FUNCTION change_feed_page(
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
      SELECT '[' || coalesce(string_agg(change_log_entry_json(c.id, c.type, c.fnr, c.recorded_at, c.action, c.changed_fields, c.vnr, c.document_key, c.edikt_id, c.gisa_zahl), ',' ORDER BY c.id), '') || ']' INTO data
        FROM (SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl FROM change_log WHERE id >= from_id AND id < bound ORDER BY id LIMIT p_limit OFFSET skip) c;
    ELSE
      SELECT '[' || coalesce(string_agg(change_log_entry_json(c.id, c.type, c.fnr, c.recorded_at, c.action, c.changed_fields, c.vnr, c.document_key, c.edikt_id, c.gisa_zahl), ',' ORDER BY c.id), '') || ']' INTO data
        FROM (SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl FROM change_log WHERE (type, id) >= (p_type, from_id) AND (type, id) < (p_type, bound)
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
      'SELECT ''['' || coalesce(string_agg(change_log_entry_json(c.id, c.type, c.fnr, c.recorded_at, c.action, c.changed_fields, c.vnr, c.document_key, c.edikt_id, c.gisa_zahl), '','' ORDER BY c.id), '''') || '']''
         FROM (SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl FROM change_log WHERE %s ORDER BY %s LIMIT $6 OFFSET $7) c',
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
