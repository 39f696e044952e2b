// OpenAPI entries of the saved queries (queries.ts): the request schema is the one the route
// validates with; the record is what presentSavedQuery answers.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accountBoundResponses, curlSample, jsonContent, problemResponses, requestJsonContent, TAGS } from '../openapi/common.js';
import { idParams } from '../validation.js';
import { SaveQuery } from '../operations/savedQueries.js';

const SavedQueryRecord = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'Last save; re-saving equal filters moves a record to the top of the list.' }),
  })
  .meta({ id: 'SavedQuery' });

const ID = '3f6c2a1e-8b4d-4e7a-9c15-2d0b7e6f4a90';
const saveQueryExample = {
  name: 'Large builders in Vienna', filters: { city: 'Wien', oenaceCode: 'F 41', 'guv.Umsatzerloese_gte': 1000000, orderBy: 'guv.Umsatzerloese', orderByDescending: true },
};

export function registerQueryDocs(registry: OpenAPIRegistry): void {
  const tags = [TAGS.account.name];
  registry.registerPath({
    method: 'get', path: '/queries', tags, summary: 'Your saved queries, newest first (by last save)', operationId: 'listSavedQueries',
    description: 'Every saved screener query (Abfrage) of your account, the most recently saved first. Run one with GET /businesses and its filters, or export it.',
    ...curlSample('GET', '/queries'),
    responses: { 200: { description: 'Saved queries', content: jsonContent(z.array(SavedQueryRecord)) }, ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/queries', tags, summary: 'Save a query (equal filters update the existing record)', operationId: 'saveQuery',
    description: 'Stores screener filters under your account. Filters are kept in canonical form; saving filters equal to a saved query\'s ' +
      'updates that record (and moves it to the top) instead of making a second one. `updateId` edits a given record.',
    ...curlSample('POST', '/queries', { body: saveQueryExample }),
    request: { body: { required: true, content: requestJsonContent(SaveQuery) } },
    responses: {
      200: { description: 'The saved record (new, or the one with equal filters, or the one pinned by updateId)', content: jsonContent(SavedQueryRecord) },
      ...problemResponses(400, 404), ...accountBoundResponses(),
    },
  });
  registry.registerPath({
    method: 'get', path: '/queries/{id}', tags, summary: 'One of your saved queries', operationId: 'getSavedQuery',
    description: 'One saved query by id. An id that is not one of your saved queries is a 404.',
    ...curlSample('GET', `/queries/${ID}`),
    request: { params: idParams },
    responses: { 200: { description: 'The record', content: jsonContent(SavedQueryRecord) }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/queries/{id}', tags, summary: 'Delete one of your saved queries', operationId: 'deleteSavedQuery',
    description: 'Deletes one saved query. An id that is not one of your saved queries is a 404.',
    ...curlSample('DELETE', `/queries/${ID}`),
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/queries/all', tags, summary: 'Delete all your saved queries', operationId: 'deleteAllSavedQueries',
    description: 'Deletes every saved query of your account; 204 also when there were none.',
    ...curlSample('DELETE', '/queries/all'),
    responses: { 204: { description: 'Deleted (also when there were none)' }, ...accountBoundResponses() },
  });
}
