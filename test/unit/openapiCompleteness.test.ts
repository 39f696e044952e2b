// What a reader and a code generator need from every operation of the OpenAPI document (issue 23.1
// and 23.2): each figure parameter (the 47 figures x _gte/_lte, and every orderBy value) says what
// the figure means, its unit and its sign as filed; expense parameters give the filter that works.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openapi/document.js';
import { KEY_FIGURES, figureParam, figureUnit } from '../../schemas/keyFigures.js';

type Json = Record<string, unknown>;
interface Parameter { name: string; in: string; description?: string; schema?: Json & { 'x-enumDescriptions'?: Record<string, string> } }
interface Operation { operationId?: string; description?: string; summary?: string; tags?: string[]; parameters?: Parameter[]; 'x-codeSamples'?: { lang: string; label?: string; source: string }[] }

const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; tags: { name: string }[] };
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));
const EXPENSES = KEY_FIGURES.filter((f) => f.sign === 'negative');

describe('figure parameters', () => {
  const withFigures = operations.filter(({ op }) => op.parameters?.some((p) => p.name === 'bilanz.BilanzSumme_gte'));

  it('are on the screener and the count', () => {
    expect(withFigures.map((o) => o.at).sort()).toEqual(['GET /businesses', 'GET /businesses/count']);
  });

  it('name the meaning (English and German), the unit and the sign convention of each figure', () => {
    for (const { at, op } of withFigures) {
      for (const f of KEY_FIGURES) {
        for (const bound of ['gte', 'lte']) {
          const p = op.parameters!.find((x) => x.name === `${figureParam(f)}_${bound}`);
          expect(p, `${at} ${figureParam(f)}_${bound}`).toBeDefined();
          const text = p!.description ?? '';
          expect(text, p!.name).toContain(f.label);
          expect(text, p!.name).toContain(f.labelDe);
          expect(text, p!.name).toContain(figureUnit(f) === 'EUR' ? 'in EUR' : 'in persons');
          expect(text, p!.name).toMatch(f.sign === 'negative' ? /NEGATIVE/ : f.sign === 'signed' ? /with its sign/ : /positive amount/);
        }
      }
    }
  });

  it('tell, on every expense parameter, the filter that finds large expenses and that a positive lower bound finds nothing', () => {
    expect(EXPENSES.map(figureParam)).toContain('guv.Personalaufwand');
    for (const { op } of withFigures) {
      for (const f of EXPENSES) {
        const gte = op.parameters!.find((x) => x.name === `${figureParam(f)}_gte`)!.description!;
        const lte = op.parameters!.find((x) => x.name === `${figureParam(f)}_lte`)!.description!;
        for (const text of [gte, lte]) expect(text).toContain(`\`${figureParam(f)}_lte=-1000000\``);
        expect(gte).toContain(`\`${figureParam(f)}_gte=1000000\` matches no company`);
      }
    }
  });

  it('describe every orderBy value, with the sort direction that puts the largest expense first', () => {
    for (const { at, op } of withFigures.filter((o) => o.at === 'GET /businesses')) {
      const orderBy = op.parameters!.find((p) => p.name === 'orderBy')!;
      const values = orderBy.schema!.enum as string[];
      const described = orderBy.schema!['x-enumDescriptions']!;
      expect(Object.keys(described).sort(), at).toEqual([...values].sort());
      for (const f of KEY_FIGURES) {
        expect(described[figureParam(f)]).toContain(f.label);
        if (f.sign === 'negative') expect(described[figureParam(f)]).toMatch(/ascending puts the largest expense first/);
      }
      for (const f of EXPENSES) expect(orderBy.description).toContain(figureParam(f));
    }
  });
});
