-- 0027 how fresh each register is, for every process to read (GET /api/v1/status, /metrics): when its
-- crawl last succeeded, how far its watermark has come, and its last refusal. Written by the pipeline
-- when a register reports a crawl run.
CREATE TABLE register_status (
  register          text PRIMARY KEY,
  last_success_at   timestamptz,
  -- The register's own progress mark: a date (yyyy-mm-dd, everything up to it read) or a timestamp.
  watermark         text,
  last_refusal_at   timestamptz,
  last_refusal      text,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
