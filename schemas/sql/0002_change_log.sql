-- 0002 change log: one global sequence for every change the service records.
--
-- A change row is written in the same transaction as the data it records. Ids come from one sequence,
-- but a sequence hands out ids at insert time while rows become visible at commit, so id 11 can be
-- visible while id 10 is still being written. A reader that kept "highest id seen = 11" would lose 10.
--
-- The fix here: every transaction that writes change rows registers its lowest id as "in flight"
-- (a transaction-scoped advisory lock keyed by that id, visible to everyone in pg_locks), and readers
-- only serve ids below change_log_safe_bound(): the lowest id still in flight, or everything allocated
-- so far when nothing is in flight. Allocation of a transaction's first id and its registration happen
-- under a short gate lock, which readers take too, so no id can be allocated but not yet registered
-- while a reader computes the bound. Writers never wait for each other's commits.
--
-- Readers must compute the bound in its own statement and read rows in a later statement (READ
-- COMMITTED), so the reading snapshot is taken after the bound.

CREATE SEQUENCE change_log_id_seq AS bigint;

CREATE TABLE change_log (
  id             bigint      PRIMARY KEY,
  type           text        NOT NULL CHECK (type IN ('business', 'document', 'edikt', 'trade')),
  fnr            text,
  recorded_at    timestamptz NOT NULL DEFAULT now(),
  action         text        NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
  changed_fields text[]      NOT NULL DEFAULT '{}',
  vnr            text,                              -- business: the register entry that caused it
  document_key   text,                              -- document
  edikt_id       text,                              -- edikt
  gisa_zahl      text,                              -- trade
  -- The record as this change left it, where the feed must answer it later (court notices).
  snapshot       jsonb,
  tx             xid8        NOT NULL DEFAULT pg_current_xact_id(),
  CHECK (type <> 'document' OR document_key IS NOT NULL),
  CHECK (type <> 'edikt' OR edikt_id IS NOT NULL),
  CHECK (type <> 'trade' OR gisa_zahl IS NOT NULL)
);
ALTER SEQUENCE change_log_id_seq OWNED BY change_log.id;

CREATE INDEX change_log_type_id ON change_log (type, id);
CREATE INDEX change_log_fnr_id ON change_log (fnr, id) WHERE fnr IS NOT NULL;
CREATE INDEX change_log_recorded_at ON change_log (recorded_at, id);

-- Lock keys: the advisory-lock key space is shared by the whole database, so ours carry a 16-bit tag
-- in the top bits ('CH' = 0x4348 for in-flight ids, 0x4349 for the gate). Ids stay below 2^48.
CREATE FUNCTION change_log_in_flight_key(change_id bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (x'4348'::bigint << 48) | change_id $$;

CREATE FUNCTION change_log_gate_key() RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT x'4349'::bigint << 48 $$;

CREATE FUNCTION change_log_assign_id() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('change_log.in_flight_id', true), '') <> '' THEN
    -- Later rows of a transaction that is already registered: their ids are above its first one.
    NEW.id := nextval('change_log_id_seq');
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_lock(change_log_gate_key());
  BEGIN
    NEW.id := nextval('change_log_id_seq');
    PERFORM pg_advisory_xact_lock_shared(change_log_in_flight_key(NEW.id));
  EXCEPTION WHEN OTHERS THEN
    PERFORM pg_advisory_unlock(change_log_gate_key());
    RAISE;
  END;
  PERFORM pg_advisory_unlock(change_log_gate_key());
  PERFORM set_config('change_log.in_flight_id', NEW.id::text, true);
  RETURN NEW;
END
$$;

CREATE TRIGGER change_log_assign_id
  BEFORE INSERT ON change_log
  FOR EACH ROW EXECUTE FUNCTION change_log_assign_id();

-- Every id below the returned value is final: committed (and visible to any later snapshot) or
-- rolled back (and never visible).
CREATE FUNCTION change_log_safe_bound() RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lowest_in_flight bigint;
  last_allocated   bigint;
  allocated        boolean;
BEGIN
  PERFORM pg_advisory_lock(change_log_gate_key());
  BEGIN
    SELECT min((((l.classid::bigint) & x'ffff'::bigint) << 32) | l.objid::bigint)
      INTO lowest_in_flight
      FROM pg_locks l
     WHERE l.locktype = 'advisory'
       AND l.objsubid = 1
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND (l.classid::bigint >> 16) = x'4348'::bigint;
    SELECT s.last_value, s.is_called INTO last_allocated, allocated FROM change_log_id_seq s;
  EXCEPTION WHEN OTHERS THEN
    PERFORM pg_advisory_unlock(change_log_gate_key());
    RAISE;
  END;
  PERFORM pg_advisory_unlock(change_log_gate_key());
  IF NOT allocated THEN
    last_allocated := last_allocated - 1;
  END IF;
  RETURN least(coalesce(lowest_in_flight, last_allocated + 1), last_allocated + 1);
END
$$;
