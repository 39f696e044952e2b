// People: search (GET /people), the name index (GET /people/names) and the person profile
// (GET /people/{personId}). Route pipeline: validate -> operation (api/operations/people.ts) -> write.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { conditionalGet } from '../middleware/conditionalGet.js';
import { autocompletePersonNames, getPersonProfile, peopleNamesQuery, peopleQuery, searchPeople } from '../operations/people.js';
import { noQuery, parseQuery, pathText } from '../validation.js';

export function peopleRouter(sql: Sql): Router {
  const router = new Router();

  router.get('/people', async (ctx) => {
    ctx.body = await searchPeople(sql, parseQuery(peopleQuery, ctx.query));
  });

  router.get('/people/names', async (ctx) => {
    ctx.body = await autocompletePersonNames(sql, parseQuery(peopleNamesQuery, ctx.query));
  });

  router.get('/people/:personId', conditionalGet('profile'), async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const personId = pathText(ctx.params, 'personId');
    const profile = await getPersonProfile(sql, personId);
    // Another spelling of the id answers as the canonical one would, and says which that is.
    if (profile.personId !== personId) ctx.set('Content-Location', `${ctx.path.slice(0, ctx.path.lastIndexOf('/') + 1)}${encodeURIComponent(profile.personId)}`);
    ctx.body = profile;
  });

  return router;
}
