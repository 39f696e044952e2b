-- 0009 helpers for the search read model (indexer/): the name normalisation shared by the indexer
-- and the API, and the pointer to the live read-model table.
--
-- The read model itself (one row per company with the 47 figure columns) is built by the indexer in
-- versioned tables company_search_v<N>, whose columns derive from schemas/keyFigures.ts; the view
-- company_search always points at the live version, so a rebuild swaps in one statement.

-- Lower case, umlauts and ß folded to their two-letter spellings (ä = ae), accents dropped,
-- punctuation to spaces, spaces collapsed: "Müller & Söhne Ges.m.b.H." -> "mueller soehne ges m b h".
CREATE FUNCTION search_norm(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT btrim(regexp_replace(
           regexp_replace(
             translate(
               replace(replace(replace(replace(lower(value), 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'ß', 'ss'),
               'áàâãåéèêëíìîïóòôõúùûçñýčšžćđř', 'aaaaaeeeeiiiiooooouuucnycszcdr'),
             '[^a-z0-9]+', ' ', 'g'),
           '\s+', ' ', 'g'))
$$;

CREATE TABLE read_model_version (
  name        text PRIMARY KEY,                 -- 'company_search'
  live_table  text NOT NULL,                    -- company_search_v<N>
  built_at    timestamptz NOT NULL DEFAULT now(),
  build_ms    integer
);
