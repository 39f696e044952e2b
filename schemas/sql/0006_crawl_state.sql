-- 0006 where each crawler and the indexer stand, so a restart continues instead of starting over.
-- crawl_state: per source and key (for example 'firmenbuch' / 'company-changes') the watermark of
-- the last fully processed window plus anything the source needs to resume.
-- index_cursor: per read model the highest change id applied (the indexer's lag is the newest change
-- id minus this).

CREATE TABLE crawl_state (
  source      text NOT NULL CHECK (source IN ('firmenbuch', 'gisa', 'edikte', 'bmf-lsu')),
  key         text NOT NULL,
  watermark   text,
  state       jsonb NOT NULL DEFAULT '{}',
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, key)
);

CREATE TABLE index_cursor (
  name            text PRIMARY KEY,
  last_change_id  bigint NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
