// OpenAPI entries of the company lists (lists.ts): the request schemas are the ones the route
// validates with; the record is what presentList answers.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accountBoundResponses, jsonContent, problemResponses, requestJsonContent } from '../openapi/common.js';
import { idParams } from '../validation.js';
import { CreateList, ListMembers, UpdateList } from './lists.js';

const ListRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    fnrs: z.array(z.string()).meta({ description: 'Members in list order (added companies are appended at the end).' }),
    removedFnrs: z.array(z.string()).meta({ description: 'Companies taken off this list; adding one again moves it back onto the list.' }),
    memberCount: z.int(),
    settings: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'List' });

export function registerListDocs(registry: OpenAPIRegistry): void {
  const tags = ['Lists'];
  const record = { description: 'The list', content: jsonContent(ListRecord) };
  registry.registerPath({
    method: 'get', path: '/lists', tags, summary: 'Your lists, oldest first',
    responses: { 200: { description: 'Lists', content: jsonContent(z.array(ListRecord)) }, ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists', tags, summary: 'Create a list, empty or holding the companies given (in that order)',
    request: { body: { required: true, content: requestJsonContent(CreateList) } },
    responses: { 200: record, ...problemResponses(400, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'get', path: '/lists/{id}', tags, summary: 'One of your lists',
    request: { params: idParams },
    responses: { 200: record, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'patch', path: '/lists/{id}', tags, summary: 'Rename a list and/or merge settings (only carried fields are written)',
    request: { params: idParams, body: { required: true, content: requestJsonContent(UpdateList) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/lists/{id}', tags, summary: 'Delete a list (nothing outside the list is touched)',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists/{id}/add', tags,
    summary: 'Add companies: appended at the end in the order given; already on the list: unchanged; in the removed set: back on the list',
    description: 'An fnr that names no company is a 400 listing the unknown values, and nothing of the request is applied.',
    request: { params: idParams, body: { required: true, content: requestJsonContent(ListMembers) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists/{id}/remove', tags,
    summary: 'Remove companies: taken off the list and recorded in the removed set; companies not on the list: unchanged',
    description: 'An fnr that names no company is a 400 listing the unknown values, and nothing of the request is applied.',
    request: { params: idParams, body: { required: true, content: requestJsonContent(ListMembers) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
}
