// Deletes what the dashboard and the authorization server no longer need: expired sessions and
// reset links, authorization codes and tokens a day after they expired (kept that long so a late
// replay is still recognised as one), and registered clients that never got a grant within a week
// (clients that re-register on every start would otherwise pile up). Runs hourly in the API process.
import type { Sql } from '../../runtime/db.js';

export const HOUSEKEEPING_INTERVAL_MS = 3_600_000;

export interface Purged {
  sessions: number;
  resets: number;
  codes: number;
  tokens: number;
  clients: number;
}

export async function purgeExpired(sql: Sql, now: Date): Promise<Purged> {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3_600_000);
  const sessions = await sql`DELETE FROM session WHERE expires_at < ${now}`;
  const resets = await sql`DELETE FROM password_reset WHERE expires_at < ${dayAgo}`;
  const codes = await sql`DELETE FROM oauth_code WHERE expires_at < ${dayAgo}`;
  const tokens = await sql`DELETE FROM oauth_token WHERE expires_at < ${dayAgo}`;
  const clients = await sql`
    DELETE FROM oauth_client c
     WHERE c.created_at < ${weekAgo}
       AND NOT EXISTS (SELECT 1 FROM oauth_grant g WHERE g.client_id = c.client_id AND g.revoked_at IS NULL)
       AND (c.last_used_at IS NULL OR c.last_used_at < ${weekAgo})`;
  return { sessions: sessions.count, resets: resets.count, codes: codes.count, tokens: tokens.count, clients: clients.count };
}
