-- 0026 person ids as typed on an ASCII keyboard: /people/zoe-fuerst-1990-02-14 (or zoe-furst-...) finds
-- zoë-fürst-1990-02-14 (issue 23.9). Ids keep their letters (api-decisions.md), so the lookup folds both
-- sides the same way: lower case, ß -> ss, accents dropped (ä -> a, ë -> e, ...), then the spelled-out
-- umlauts ae/oe/ue -> a/o/u, so 'fürst', 'fuerst' and 'furst' are one key. A folded key may name more
-- than one person (then the API says which); the exact id is always looked up first.
CREATE FUNCTION person_id_fold(id text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT replace(replace(replace(
           translate(replace(lower(id), 'ß', 'ss'),
             'äáàâãåāăąéèêëēėęěíìîïīįöóòôõøōőüúùûūůűųýÿçćčďđłñńňŕřśšşťţźžż',
             'aaaaaaaaaeeeeeeeeiiiiiioooooooouuuuuuuuyycccddlnnnrrsssttzzz'),
           'ae', 'a'), 'oe', 'o'), 'ue', 'u')
$$;

CREATE INDEX person_id_folded ON person (person_id_fold(person_id));
