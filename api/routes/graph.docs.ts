// OpenAPI entry of GET /graph (graph.ts), with the query schema the route validates with; the
// example is the network around Müller Bau GmbH.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { codeText, nullableString, registerExample, registerJsonGet, TAGS } from '../openapi/common.js';
import { EINZELVERTRETUNG, GEMEINSAM, GF, PR } from '../openapi/exampleData.js';
import { graphQuery } from '../operations/graph.js';

const Graph = z
  .object({
    nodes: z.array(z.object({
      id: z.string().meta({ description: '`company:<fnr>`, `person:<personId>` or `organisation:<id>`.' }),
      type: z.enum(['company', 'person', 'organisation']), label: z.string(), fnr: z.string().optional(), personId: z.string().optional(),
      isActive: z.boolean().optional(),
    })),
    edges: z.array(z.object({
      source: z.string(), target: z.string().meta({ description: 'Always a company: the one the function is held in or the share is held of.' }),
      type: z.enum(['holding', 'function']),
      functionCode: z.string().optional(), functionText: nullableString.optional(), representation: codeText.nullable().optional(),
      capital: z.number().nullable().optional(), paidIn: z.number().nullable().optional(), currency: nullableString.optional(), since: nullableString.optional(),
    }).loose()),
    truncated: z.boolean().meta({ description: 'true when the graph reached 500 nodes and was cut there.' }),
  })
  .meta({ id: 'Graph' });

const graphExample = {
  nodes: [
    { id: 'company:30435h', type: 'company', label: 'Müller Bau GmbH', fnr: '30435h', isActive: true },
    { id: 'person:andrea-müller-1972-04-18', type: 'person', label: 'Andrea Müller', personId: 'andrea-müller-1972-04-18' },
    { id: 'person:thomas-berger-1985-09-30', type: 'person', label: 'Thomas Berger', personId: 'thomas-berger-1985-09-30' },
    { id: 'company:388410t', type: 'company', label: 'Murtal Beteiligungsverwaltung GmbH', fnr: '388410t', isActive: true },
    { id: 'organisation:5f1c0a9e2b7d4c31', type: 'organisation', label: 'Familie Müller Privatstiftung (Liechtenstein)' },
  ],
  edges: [
    {
      source: 'person:andrea-müller-1972-04-18', target: 'company:30435h', type: 'function', functionCode: 'GF', functionText: GF,
      representation: EINZELVERTRETUNG, since: '2011-03-01',
    },
    { source: 'person:andrea-müller-1972-04-18', target: 'company:30435h', type: 'holding', capital: 24500, paidIn: 24500, currency: 'EUR', since: '2011-03-01' },
    {
      source: 'person:thomas-berger-1985-09-30', target: 'company:30435h', type: 'function', functionCode: 'PR', functionText: PR,
      representation: GEMEINSAM, since: '2019-01-15',
    },
    { source: 'company:388410t', target: 'company:30435h', type: 'holding', capital: 10500, paidIn: 10500, currency: 'EUR', since: '2016-05-20' },
    { source: 'organisation:5f1c0a9e2b7d4c31', target: 'company:388410t', type: 'holding', capital: 35000, paidIn: 17500, currency: 'EUR', since: '2016-05-20' },
  ],
  truncated: false,
};

export function registerGraphDocs(registry: OpenAPIRegistry): void {
  registerJsonGet(registry, '/graph', [TAGS.people.name], 'Holdings and functions around a company or person', graphQuery, Graph, {
    operationId: 'getGraph', request: '/graph?fnr=30435h&depth=2',
    description: 'The network around one company (`fnr`) or person (`personId`): companies, people and organisations as nodes, current ' +
      'functions and holdings as edges pointing at the company, followed up to `depth` links. Cut at 500 nodes (`truncated`). ' +
      'An unknown start is a 404.',
    problems: [400, 404],
    examples: registerExample(registry, 'Graph', 'fnr=30435h&depth=2: functions, a person and a corporate shareholder, and its foreign owner', graphExample),
  });
}
