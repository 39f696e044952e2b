// OpenAPI entries of the company lists (lists.ts): the request schemas are the ones the route
// validates with; the record is what presentList answers.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accountBoundResponses, curlSample, jsonContent, problemResponses, requestJsonContent, TAGS } from '../openapi/common.js';
import { idParams } from '../validation.js';
import { CreateList, ListMembers, UpdateList } from '../operations/lists.js';

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

const ID = '3f6c2a1e-8b4d-4e7a-9c15-2d0b7e6f4a90';

export function registerListDocs(registry: OpenAPIRegistry): void {
  const tags = [TAGS.account.name];
  const record = { description: 'The list', content: jsonContent(ListRecord) };
  registry.registerPath({
    method: 'get', path: '/lists', tags, summary: 'Your lists, oldest first', operationId: 'listLists',
    description: 'Every company list (Liste) of your account with its members in list order and its removed set.',
    ...curlSample('GET', '/lists'),
    responses: { 200: { description: 'Lists', content: jsonContent(z.array(ListRecord)) }, ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists', tags, summary: 'Create a list, empty or holding the companies given (in that order)', operationId: 'createList',
    description: 'Creates a named list under your account; `fnrs` (optional) become its members in the order given. An fnr that names no company is a 400.',
    ...curlSample('POST', '/lists', { body: { name: 'Bauträger Wien', fnrs: ['30435h', '402287z'] } }),
    request: { body: { required: true, content: requestJsonContent(CreateList) } },
    responses: { 200: record, ...problemResponses(400, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'get', path: '/lists/{id}', tags, summary: 'One of your lists', operationId: 'getList',
    description: 'One list by id. An id that is not one of your lists is a 404.',
    ...curlSample('GET', `/lists/${ID}`),
    request: { params: idParams },
    responses: { 200: record, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'patch', path: '/lists/{id}', tags, summary: 'Rename a list and/or merge settings (only carried fields are written)', operationId: 'updateList',
    description: 'Changes the name and/or settings of one list; members change through /add and /remove.',
    ...curlSample('PATCH', `/lists/${ID}`, { body: { name: 'Bauträger Wien und Niederösterreich' } }),
    request: { params: idParams, body: { required: true, content: requestJsonContent(UpdateList) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'delete', path: '/lists/{id}', tags, summary: 'Delete a list (nothing outside the list is touched)', operationId: 'deleteList',
    description: 'Deletes one list with its members and removed set. An id that is not one of your lists is a 404.',
    ...curlSample('DELETE', `/lists/${ID}`),
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 404), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists/{id}/add', tags,
    summary: 'Add companies: appended at the end in the order given; already on the list: unchanged; in the removed set: back on the list',
    operationId: 'addListMembers', ...curlSample('POST', `/lists/${ID}/add`, { body: { fnrs: ['155021y'] } }),
    description: 'An fnr that names no company is a 400 listing the unknown values, and nothing of the request is applied.',
    request: { params: idParams, body: { required: true, content: requestJsonContent(ListMembers) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
  registry.registerPath({
    method: 'post', path: '/lists/{id}/remove', tags,
    summary: 'Remove companies: taken off the list and recorded in the removed set; companies not on the list: unchanged',
    operationId: 'removeListMembers', ...curlSample('POST', `/lists/${ID}/remove`, { body: { fnrs: ['402287z'] } }),
    description: 'An fnr that names no company is a 400 listing the unknown values, and nothing of the request is applied.',
    request: { params: idParams, body: { required: true, content: requestJsonContent(ListMembers) } },
    responses: { 200: record, ...problemResponses(400, 404, 415), ...accountBoundResponses() },
  });
}
