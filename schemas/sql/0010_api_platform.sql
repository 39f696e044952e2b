-- 0010 what the API platform needs beyond 0007: a plan for service keys, a metering subject that
-- survives key rotation, and the index behind "saved queries, newest first".
--
-- Service keys (account_id null) are metered per key, not per account. So that rotating a service
-- key does not reset its monthly quota, every key of one rotation chain meters under the first key's
-- id (meter_key_id); account keys meter under the account and ignore it.

ALTER TABLE api_key
  ADD COLUMN plan         text REFERENCES plan (code),           -- service keys only; account keys use the account's plan
  ADD COLUMN meter_key_id uuid REFERENCES api_key (id);          -- first key of the rotation chain; null = this key

ALTER TABLE api_key
  ADD CONSTRAINT api_key_plan_only_for_service_keys CHECK (account_id IS NULL OR plan IS NULL);

-- A re-saved query moves to the top of the list (it is the newest save), so the list reads by updated_at.
CREATE INDEX saved_query_account_updated ON saved_query (account_id, updated_at DESC, id);

-- Sessions are looked up by hash and pruned by expiry.
CREATE INDEX session_expires ON session (expires_at);
CREATE INDEX session_account ON session (account_id);
