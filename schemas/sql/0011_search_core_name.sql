-- 0011 the core of a normalised company name: search_norm() output without its trailing legal-form
-- suffixes ("mueller bau ges m b h" -> "mueller bau"). The read model stores it as core_norm so name
-- search compares "GmbH", "Ges.m.b.H." and "Gesellschaft mit beschränkter Haftung" spellings through
-- one btree lookup instead of a regex per row.
--
-- Must equal coreName() in indexer/search/nameSearch.ts (same suffix list; test/integration/
-- businessSearch.test.ts compares both). coreName() strips the longest matching suffix and repeats;
-- the regex's leftmost match of a run of suffixes reaches the same point for this list.
CREATE FUNCTION search_core(norm text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_replace(norm,
    '( (gesellschaft mit beschraenkter haftung|gesellschaft m b h|gesellschaft mbh|reg gen m b h|offene gesellschaft'
    '|kommanditgesellschaft|aktiengesellschaft|privatstiftung|gmbh co kg|ges m b h|gmbh co|ges mbh|g m b h|gesmbh'
    '|gmbh|egen|vvag|e u|oeg|keg|ohg|ag|kg|og|eu|se))+$', '')
$$;
