-- 0021 court-notice changes by notice: when the register deletes an edict, the snapshots its earlier
-- changes recorded are erased with it (pipeline/edikte/noticeStore.ts deleteNotices); without this
-- index that update reads every court-notice change in the log.

CREATE INDEX change_log_edikt_id ON change_log (edikt_id) WHERE type = 'edikt';
