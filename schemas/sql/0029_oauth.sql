-- 0029 the OAuth 2.1 authorization server of the web app (issue 21, ../shared/notes/mcp-oauth.md
-- §7.3). Every secret (client secret, code, token) is stored as its SHA-256 only. Every grant is
-- bound to one API key of its account: calls made with the grant's tokens are billed through that
-- key, and revoking the key ends the grant.

CREATE TABLE oauth_client (
  client_id                  text PRIMARY KEY,
  client_secret_hash         bytea,                -- null for public clients (auth method none)
  token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  client_name                text,
  redirect_uris              text[] NOT NULL,
  grant_types                text[] NOT NULL,
  metadata                   jsonb NOT NULL,       -- the registration response (RFC 7591), without the secret
  created_at                 timestamptz NOT NULL DEFAULT now(),
  last_used_at               timestamptz
);

CREATE TABLE oauth_grant (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  client_id    text NOT NULL REFERENCES oauth_client (client_id) ON DELETE CASCADE,
  key_id       uuid NOT NULL REFERENCES api_key (id) ON DELETE CASCADE,
  scopes       text[] NOT NULL,
  resource     text NOT NULL,                      -- RFC 8707 audience: the MCP server's URL
  redirect_uri text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX oauth_grant_account ON oauth_grant (account_id, created_at);
CREATE INDEX oauth_grant_key ON oauth_grant (key_id);

CREATE TABLE oauth_code (
  code_hash      bytea PRIMARY KEY,
  grant_id       uuid NOT NULL REFERENCES oauth_grant (id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,                    -- as sent to /authorize; the token request must repeat it
  code_challenge text NOT NULL,                    -- S256 only
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz                       -- set at the first exchange; a second one revokes the grant
);
CREATE INDEX oauth_code_grant ON oauth_code (grant_id);

CREATE TABLE oauth_token (
  token_hash    bytea PRIMARY KEY,
  grant_id      uuid NOT NULL REFERENCES oauth_grant (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('access', 'refresh')),
  scopes        text[] NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz,
  -- Refresh rotation: the token that replaced this one. This one stays usable until its replacement
  -- is first used (first_used_at there); presenting it after that is a replay and revokes the grant.
  replaced_by   bytea,
  first_used_at timestamptz
);
CREATE INDEX oauth_token_grant ON oauth_token (grant_id);
CREATE INDEX oauth_token_expires ON oauth_token (expires_at);
