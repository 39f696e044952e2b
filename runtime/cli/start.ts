// npm start: the service without replaying anything. Applies pending migrations, then runs the API.
// (The pipeline workers and the indexer join this process as their issues land.)
import { startApi } from '../../api/server.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { onShutdown } from '../shutdown.js';

runMain(async () => {
  const rt = await bootstrap({ applicationName: 'api' });
  const api = await startApi({ sql: rt.sql, log: rt.log, port: rt.config.PORT });
  console.log(`API: ${api.baseUrl}`);
  onShutdown(rt.log, [api.close, rt.close]);
});
