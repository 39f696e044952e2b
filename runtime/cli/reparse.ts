// npm run reparse: re-derives every stored annual account's figures from its raw XML (no refetch), tries
// again every filing whose parse failed (its XML is kept), and re-derives every company's industry
// codes from its business purpose and trade keys.
import { reparseAnnualAccounts } from '../../pipeline/firmenbuch/reparse.js';
import { rederiveAllOenaces } from '../../pipeline/oenace/rederive.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { commandLine } from './args.js';

runMain(async () => {
  commandLine({
    usage: "usage: npm run reparse\n  Re-derives every stored annual account's figures from its raw XML, without refetching, retries every filing whose parse failed, " +
      "and re-derives every company's ÖNACE codes.",
    options: {},
  });
  const rt = await bootstrap({ applicationName: 'reparse', cli: true });
  try {
    const summary = await reparseAnnualAccounts(rt.sql, rt.log);
    console.log(`reparse: ${summary.filings} filings, ${summary.changed} changed, ${summary.failed} failed; ` +
      `${summary.retried} failed parses retried, ${summary.recovered} of them parse now`);
    const oenaces = await rederiveAllOenaces(rt.sql, rt.log);
    console.log(`reparse: ÖNACE codes of ${oenaces.companies} companies derived again, ${oenaces.changed} changed (${Math.round(oenaces.companies / Math.max(oenaces.seconds, 0.001))}/s)`);
    if (summary.failed > 0) process.exitCode = 1;
  } finally {
    await rt.close();
  }
});
