// OpenAPI entry of GET /status (status.ts): freshness per register, free and without a key.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { curlSample, jsonContent, problemResponses, registerExample, TAGS } from '../openapi/common.js';
import { STATUS_PATH } from './status.js';

const RegisterStatus = z.object({
  register: z.string().meta({ description: 'The register: firmenbuch, gisa, edikte, bmf' }),
  lastSuccessAt: z.string().nullable().meta({ description: 'When a crawl run of the register last succeeded (UTC); null: never' }),
  watermark: z.string().nullable().meta({ description: 'How far the register has been read: a date (everything up to and including it) or a timestamp' }),
  lagSeconds: z.number().int().nullable().meta({ description: 'Seconds from the watermark (a date: the end of that day, UTC) to now' }),
  lastRefusal: z.object({ at: z.string(), reason: z.string() }).nullable().meta({ description: 'The last upstream answer the register refused to apply (the list safety valve, an authentication error), if any' }),
  queue: z.object({ waiting: z.number().int(), failed: z.number().int() }).nullable().meta({ description: 'Jobs waiting and failed on the register\'s queue; null where the API process has no view of the queues' }),
}).meta({ id: 'RegisterStatus' });

export function registerStatusDocs(registry: OpenAPIRegistry): void {
  const examples = registerExample(registry, 'Status', 'The company register read up to yesterday', {
    registers: [{
      register: 'firmenbuch', lastSuccessAt: '2026-11-25T09:00:12.481Z', watermark: '2026-11-24', lagSeconds: 32412,
      lastRefusal: null, queue: { waiting: 0, failed: 1 },
    }],
  });
  registry.registerPath({
    method: 'get', path: STATUS_PATH, tags: [TAGS.status.name], summary: 'How fresh each register is', security: [], operationId: 'getStatus',
    ...curlSample('GET', STATUS_PATH, { free: true }),
    description: 'Per register: the last successful crawl, its watermark and lag, and its queue. Needs no key and is not billed.',
    responses: {
      200: { description: 'Freshness per register', content: jsonContent(z.object({ registers: z.array(RegisterStatus) }), examples) },
      ...problemResponses(400),
    },
  });
}
