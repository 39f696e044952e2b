-- 0028 self-service accounts (issue 21): sign-in passwords, password-reset links, key rotation on
-- the same key id with a grace period for the old secret, and usage by day, key and channel for the
-- dashboard. The monthly quota stays counted in usage_counter; usage_daily is its breakdown.

-- argon2id PHC string; null for accounts an operator created (a reset link sets one).
ALTER TABLE account ADD COLUMN password_hash text;

-- Rotation keeps the key id (grants and usage stay attached): the previous secret's hash is kept
-- and accepted until prev_valid_until.
ALTER TABLE api_key
  ADD COLUMN prev_key_hash    bytea,
  ADD COLUMN prev_valid_until timestamptz,
  ADD COLUMN rotated_at       timestamptz;
CREATE UNIQUE INDEX api_key_prev_hash ON api_key (prev_key_hash) WHERE prev_key_hash IS NOT NULL;

-- A reset link is a random token shown only in the mail; its SHA-256 is stored, single use.
CREATE TABLE password_reset (
  token_hash bytea PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX password_reset_account ON password_reset (account_id);

-- Billed requests per UTC day, key and channel, added up from the API's Redis deltas by the usage flusher.
CREATE TABLE usage_daily (
  key_id   uuid   NOT NULL REFERENCES api_key (id) ON DELETE CASCADE,
  day      date   NOT NULL,
  channel  text   NOT NULL CHECK (channel IN ('rest', 'mcp')),
  requests bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, channel)
);
