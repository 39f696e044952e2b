// npm run admin -- <command>: accounts and keys for operators.
//   account create --plan free|pro|api --email a@example.org [--json]
//   key create --account <id> [--label text] [--json]
//   key create --service [--label text] [--json]
//   key revoke <keyId> [--json]
// With --json every command answers one JSON object on stdout.
import { parseArgs } from 'node:util';
import { createAccount, createApiKey, PLANS, revokeApiKey, type Plan } from '../../api/accounts/accountStore.js';
import { bootstrap, runMain } from '../bootstrap.js';

const USAGE = `usage:
  npm run admin -- account create --plan free|pro|api --email <email> [--json]
  npm run admin -- key create --account <accountId> [--label <text>] [--json]
  npm run admin -- key create --service [--label <text>] [--json]
  npm run admin -- key revoke <keyId> [--json]`;

class UsageError extends Error {}

runMain(async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      email: { type: 'string' },
      account: { type: 'string' },
      service: { type: 'boolean', default: false },
      label: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [noun, verb, arg] = positionals;
  const rt = await bootstrap({ applicationName: 'admin', cli: true });
  const out = (obj: Record<string, unknown>, text: string) => console.log(values.json ? JSON.stringify(obj) : text);
  try {
    if (noun === 'account' && verb === 'create') {
      if (!values.email || !PLANS.includes(values.plan as Plan)) throw new UsageError('account create needs --email and --plan free|pro|api');
      const account = await createAccount(rt.sql, { email: values.email, plan: values.plan as Plan });
      out({ id: account.id, email: account.email, plan: account.plan }, `account ${account.id} (${account.plan})`);
    } else if (noun === 'key' && verb === 'create') {
      if (!values.service && !values.account) throw new UsageError('key create needs --account <id> or --service');
      const issued = await createApiKey(rt.sql, { accountId: values.service ? null : values.account!, label: values.label });
      out({ id: issued.id, key: issued.key, accountId: issued.accountId }, `key ${issued.id}: ${issued.key}\n(shown once; store it now)`);
    } else if (noun === 'key' && verb === 'revoke' && arg) {
      const revoked = await revokeApiKey(rt.sql, arg);
      out({ id: arg, revoked }, revoked ? `key ${arg} revoked` : `key ${arg} not found or already revoked`);
      if (!revoked) process.exitCode = 1;
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
