-- 0007 accounts and what belongs to them: plans with monthly quotas, API keys (only a hash is
-- stored; the key is shown once), browser sessions for the dashboard, monthly usage counters (kept
-- in Redis on the hot path and flushed here), saved queries and company lists.
--
-- Usage is counted per subject: the account for account keys (so rotating or adding keys never
-- resets the quota), the key itself for service keys without an account.

CREATE TABLE plan (
  code          text PRIMARY KEY CHECK (code IN ('free', 'pro', 'api')),
  monthly_quota integer CHECK (monthly_quota > 0)     -- null = unlimited
);
INSERT INTO plan (code, monthly_quota) VALUES ('free', 100), ('pro', 5000), ('api', NULL);

CREATE TABLE account (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email       text NOT NULL,
  plan        text NOT NULL REFERENCES plan (code),
  created_at  timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
CREATE UNIQUE INDEX account_email ON account (lower(email));

CREATE TABLE api_key (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid REFERENCES account (id) ON DELETE CASCADE,  -- null: service key, public data only
  key_hash     bytea NOT NULL UNIQUE,                           -- SHA-256 of the key
  key_prefix   text NOT NULL,                                   -- first characters, to recognise a key
  label        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  rotated_from uuid REFERENCES api_key (id),
  last_used_at timestamptz
);
CREATE INDEX api_key_account ON api_key (account_id);

CREATE TABLE session (
  token_hash  bytea PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);

CREATE TABLE usage_counter (
  subject     text NOT NULL,                  -- 'account:<uuid>' or 'key:<uuid>'
  month       date NOT NULL,                  -- first day of the month, UTC
  requests    bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject, month)
);

CREATE TABLE saved_query (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id        uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  name              text,
  filters           jsonb NOT NULL,
  filters_canonical text NOT NULL,             -- canonical form: equal filter sets are one record
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, filters_canonical)
);
CREATE INDEX saved_query_account ON saved_query (account_id, created_at DESC);

CREATE TABLE company_list (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  name        text NOT NULL,
  settings    jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_list_account ON company_list (account_id, created_at);

CREATE TABLE company_list_member (
  list_id   uuid   NOT NULL REFERENCES company_list (id) ON DELETE CASCADE,
  fnr       text   NOT NULL,
  position  bigint NOT NULL,                    -- append order
  added_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, fnr)
);
CREATE INDEX company_list_member_order ON company_list_member (list_id, position);

CREATE TABLE company_list_removed (
  list_id    uuid NOT NULL REFERENCES company_list (id) ON DELETE CASCADE,
  fnr        text NOT NULL,
  removed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, fnr)
);
