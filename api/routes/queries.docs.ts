// OpenAPI entries of the saved queries (queries.ts): the request schema is the one the route
// validates with; the record is what presentSavedQuery answers.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accountBoundResponses, jsonContent, problemResponses, requestJsonContent } from '../openapi/common.js';
import { idParams } from '../validation.js';
import { SaveQuery } from './queries.js';

const SavedQueryRecord = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'Last save; re-saving equal filters moves a record to the top of the list.' }),
  })
  .meta({ id: 'SavedQuery' });

export function registerQueryDocs(registry: OpenAPIRegistry): void {
  const tags = ['Saved queries'];
  registry.registerPath({
    method: 'get', path: '/queries', tags, summary: 'Your saved queries, newest first (by last save)',
    responses: { 200: { description: 'Saved queries', content: jsonContent(z.array(SavedQueryRecord)) }, ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/queries', tags, summary: 'Save a query (equal filters update the existing record)',
    request: { body: { required: true, content: requestJsonContent(SaveQuery) } },
    responses: {
      200: { description: 'The saved record (new, or the one with equal filters, or the one pinned by updateId)', content: jsonContent(SavedQueryRecord) },
      ...problemResponses(400, 404), ...accountBoundResponses(),
    },
  });
  registry.registerPath({
    method: 'get', path: '/queries/{id}', tags, summary: 'One of your saved queries',
    request: { params: idParams },
    responses: { 200: { description: 'The record', content: jsonContent(SavedQueryRecord) }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/queries/{id}', tags, summary: 'Delete one of your saved queries',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/queries/all', tags, summary: 'Delete all your saved queries',
    responses: { 204: { description: 'Deleted (also when there were none)' }, ...accountBoundResponses() },
  });
}
