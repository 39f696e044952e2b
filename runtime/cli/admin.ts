// npm run admin -- <command>: accounts, keys, sessions and usage for operators.
//   account create --plan free|pro|api --email a@example.org [--json]
//   key create --account <id> [--label text] [--json]
//   key create --service [--plan free|pro|api] [--label text] [--json]
//   key rotate <keyId> [--json]        new key, old one revoked, quota untouched
//   key revoke <keyId> [--json]
//   session create --account <id> [--hours 12] [--json]
//   usage --account <id> [--json]
// With --json every command answers one JSON object on stdout (logs go to stderr).
import { Redis } from 'ioredis';
import {
  createAccount, createApiKey, createSession, PLANS, revokeApiKey, rotateApiKey, SESSION_COOKIE, type Plan,
} from '../../api/accounts/accountStore.js';
import { DEFAULT_REDIS_PREFIX } from '../../api/metering/admission.js';
import { accountUsage } from '../../api/metering/usageReport.js';
import { bootstrap, CliError, runMain, type Runtime } from '../bootstrap.js';
import { commandLine } from './args.js';

const USAGE = `usage:
  npm run admin -- account create --plan free|pro|api --email <email> [--json]
  npm run admin -- key create --account <accountId> [--label <text>] [--json]
  npm run admin -- key create --service [--plan free|pro|api] [--label <text>] [--json]
  npm run admin -- key rotate <keyId> [--json]
  npm run admin -- key revoke <keyId> [--json]
  npm run admin -- session create --account <accountId> [--hours <n>] [--json]
  npm run admin -- usage --account <accountId> [--json]`;

class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Values = {
  plan?: string; email?: string; account?: string; service?: boolean; label?: string; hours?: string; json?: boolean;
};
type Out = (obj: Record<string, unknown>, text: string) => void;

function planOption(value: string | undefined, required: boolean): Plan | undefined {
  if (value === undefined && !required) return undefined;
  if (!PLANS.includes(value as Plan)) throw new UsageError('--plan must be free, pro or api');
  return value as Plan;
}

function idArgument(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new UsageError(`${what} must be an id (uuid)`);
  return value;
}

async function keyCommand(rt: Runtime, verb: string | undefined, arg: string | undefined, values: Values, out: Out): Promise<void> {
  if (verb === 'create') {
    if (!values.service && !values.account) throw new UsageError('key create needs --account <id> or --service');
    if (values.service && values.account) throw new UsageError('key create takes --account or --service, not both');
    if (values.account && values.plan) throw new UsageError('an account key follows its account\'s plan; --plan is for service keys');
    const accountId = values.service ? null : idArgument(values.account, '--account');
    const issued = await createApiKey(rt.sql, { accountId, label: values.label, plan: planOption(values.plan, false) });
    out({ id: issued.id, key: issued.key, accountId: issued.accountId }, `key ${issued.id}: ${issued.key}\n(shown once; store it now)`);
  } else if (verb === 'rotate') {
    const rotated = await rotateApiKey(rt.sql, idArgument(arg, 'key rotate <keyId>'));
    if (!rotated) {
      out({ id: arg, rotated: false }, `key ${arg} not found or already revoked`);
      process.exitCode = 1;
      return;
    }
    out(
      { id: rotated.id, key: rotated.key, accountId: rotated.accountId, rotatedFrom: rotated.rotatedFrom },
      `key ${rotated.id}: ${rotated.key}\n(shown once; store it now) - key ${rotated.rotatedFrom} is revoked`,
    );
  } else if (verb === 'revoke') {
    const id = idArgument(arg, 'key revoke <keyId>');
    const revoked = await revokeApiKey(rt.sql, id);
    out({ id, revoked }, revoked ? `key ${id} revoked` : `key ${id} not found or already revoked`);
    if (!revoked) process.exitCode = 1;
  } else {
    throw new UsageError(`unknown command: key ${verb ?? ''}`);
  }
}

async function usageCommand(rt: Runtime, values: Values, out: Out): Promise<void> {
  const accountId = idArgument(values.account, '--account');
  const redis = new Redis(rt.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const usage = await accountUsage(rt.sql, redis, DEFAULT_REDIS_PREFIX, accountId, Date.now());
    if (!usage) {
      out({ accountId, error: 'account not found' }, `account ${accountId} not found`);
      process.exitCode = 1;
      return;
    }
    const limit = usage.monthlyQuota === null ? 'unlimited' : String(usage.monthlyQuota);
    const lines = [
      `account ${usage.accountId} (${usage.email}, plan ${usage.plan}): ${usage.requests} of ${limit} requests in ${usage.month}`,
      ...usage.history.map((h) => `  ${h.month}: ${h.requests}`),
      ...usage.keys.map((k) => `  key ${k.id} ${k.keyPrefix}… ${k.revokedAt ? 'revoked' : 'active'}${k.lastUsedAt ? `, last used ${k.lastUsedAt.toISOString()}` : ''}`),
    ];
    out({ ...usage }, lines.join('\n'));
  } finally {
    redis.disconnect();
  }
}

runMain(async () => {
  const { values, positionals } = commandLine({
    usage: USAGE,
    positionals: true,
    options: {
      plan: { type: 'string' },
      email: { type: 'string' },
      account: { type: 'string' },
      service: { type: 'boolean', default: false },
      label: { type: 'string' },
      hours: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [noun, verb, arg] = positionals;
  if (!noun) throw new CliError(`admin: name a command\n${USAGE}`);
  const rt = await bootstrap({ applicationName: 'admin', cli: true });
  const out: Out = (obj, text) => console.log(values.json ? JSON.stringify(obj) : text);
  try {
    if (noun === 'account' && verb === 'create') {
      if (!values.email) throw new UsageError('account create needs --email and --plan free|pro|api');
      const account = await createAccount(rt.sql, { email: values.email, plan: planOption(values.plan, true)! });
      out({ id: account.id, email: account.email, plan: account.plan }, `account ${account.id} (${account.plan})`);
    } else if (noun === 'key') {
      await keyCommand(rt, verb, arg, values, out);
    } else if (noun === 'session' && verb === 'create') {
      const hours = values.hours === undefined ? undefined : Number(values.hours);
      if (hours !== undefined && !(hours > 0 && hours <= 24 * 30)) throw new UsageError('--hours must be a number from 0 to 720');
      const session = await createSession(rt.sql, idArgument(values.account, '--account'), { hours });
      out(
        { token: session.token, accountId: session.accountId, cookie: `${SESSION_COOKIE}=${session.token}`, expiresAt: session.expiresAt.toISOString() },
        `session for ${session.accountId} until ${session.expiresAt.toISOString()}\ncookie: ${SESSION_COOKIE}=${session.token}`,
      );
    } else if (noun === 'usage') {
      await usageCommand(rt, values, out);
    } else {
      throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${USAGE}`);
      process.exitCode = 2;
    } else throw err;
  } finally {
    await rt.close();
  }
});
