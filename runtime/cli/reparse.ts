// npm run reparse: re-derives every stored annual account's figures from its raw XML (no refetch).
import { reparseAnnualAccounts } from '../../pipeline/firmenbuch/reparse.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { commandLine } from './args.js';

runMain(async () => {
  commandLine({ usage: "usage: npm run reparse\n  Re-derives every stored annual account's figures from its raw XML, without refetching.", options: {} });
  const rt = await bootstrap({ applicationName: 'reparse', cli: true });
  try {
    const summary = await reparseAnnualAccounts(rt.sql, rt.log);
    console.log(`reparse: ${summary.filings} filings, ${summary.changed} changed, ${summary.failed} failed`);
    if (summary.failed > 0) process.exitCode = 1;
  } finally {
    await rt.close();
  }
});
