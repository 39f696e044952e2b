// npm run migrate: applies pending schema migrations and reloads catalogue files that changed.
import { bootstrap, runMain } from '../bootstrap.js';
import { commandLine } from './args.js';

runMain(async () => {
  commandLine({ usage: "usage: npm run migrate\n  Applies pending schema migrations and reloads catalogue files that changed.", options: {} });
  const rt = await bootstrap({ migrate: true, applicationName: 'migrate', cli: true });
  const [row] = await rt.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM schema_migration`;
  console.log(`schema at migration ${row?.count ?? 0}; database ${new URL(rt.databaseUrl).pathname.slice(1)}`);
  await rt.close();
});
