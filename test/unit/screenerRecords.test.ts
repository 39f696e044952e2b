// The screener's two renderers must agree byte for byte: the object presenter (rows from Postgres or
// Elasticsearch) and the pieces the in-memory columns write (schemas/jsonWriter.ts).
import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/syntheticCompanies.js';
import { JsonWriter } from '../../schemas/jsonWriter.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { parseScreenerFields, projectScreenerRow, SCREENER_FIELD_NAMES, type ScreenerFields } from '../../schemas/screenerFields.js';
import {
  codeAndTextJson, flagsJson, presentScreenerRow, writeKeyFigures, writeScreenerRowHead, writeSomeKeyFigures, writeSparseRowHead, type ScreenerRow,
} from '../../schemas/screenerRecords.js';

const bytes = (json: string) => Buffer.from(json, 'utf8');

/** The row as the columns write it: figures as doubles parsed from the decimal strings, NaN for null. */
function written(row: ScreenerRow): string {
  const columns = KEY_FIGURES.map((f) => {
    const v = row.figures[figureJsonKey(f)];
    return Float64Array.of(v == null ? Number.NaN : Number(v));
  });
  const names = bytes(`xx${JSON.stringify(row.name)}yy`); // a range inside a shared store
  const w = new JsonWriter(16); // grows while writing
  writeScreenerRowHead(w, {
    fnr: row.fnr, names, nameStart: 2, nameEnd: names.length - 2, legalForm: bytes(codeAndTextJson(row.legalFormCode, row.legalFormText)),
    court: bytes(codeAndTextJson(row.courtCode, row.courtText)), city: bytes(JSON.stringify(row.city)), zipCode: bytes(JSON.stringify(row.zipCode)),
    flags: flagsJson(row.isActive, row.isScheinunternehmen, row.hasEdikt),
  });
  if (row.documentKey) writeKeyFigures(w, bytes(JSON.stringify(row.documentDate)), columns, 0);
  else w.ascii('null');
  w.ascii('}');
  return w.bytes().toString('utf8');
}

const base: ScreenerRow = {
  fnr: '34853f', name: 'Müller & Söhne "Alpen" Gesellschaft m.b.H.\\\n\u2028 😀', legalFormCode: 'GES', legalFormText: 'Gesellschaft mit beschränkter Haftung',
  courtCode: '007', courtText: 'Handelsgericht Wien', city: 'Wien', zipCode: '1010', isActive: true, isScheinunternehmen: false, hasEdikt: true,
  documentKey: 'doc-1', documentDate: '2024-12-31', figures: {},
};
const decimals = ['0', '-0', '-120000.75', '12.50', '0.1', '0.07', '5039430359.09', '99999999999.99', '100000000000000', '999999999999999', '1e3', '0.000001', '123.456', null];

describe('screener row renderers', () => {
  it('write the same JSON for rows with and without filings, nulls, negatives, decimals and escapes', () => {
    const rows: ScreenerRow[] = [
      { ...base, figures: {} },
      { ...base, figures: {}, legalFormCode: null, legalFormText: null, courtCode: null, courtText: null, city: null, zipCode: null, isActive: false, isScheinunternehmen: true, hasEdikt: false },
      { ...base, documentKey: null, documentDate: null },
      { ...base, documentDate: null },
      { ...base, legalFormText: null, fnr: 'a"b' },
    ];
    KEY_FIGURES.forEach((f, i) => {
      rows[0]!.figures[figureJsonKey(f)] = decimals[i % decimals.length]!;
      rows[1]!.figures[figureJsonKey(f)] = decimals[(i + 3) % decimals.length]!;
    });
    for (const row of rows) expect(written(row)).toBe(JSON.stringify(presentScreenerRow(row)));
  });

  it('print a filing without figures as an object of nulls, and no filing as null', () => {
    const withFiling = JSON.parse(written({ ...base, figures: {} })) as { keyFigures: Record<string, unknown> };
    expect(withFiling.keyFigures.documentDate).toBe('2024-12-31');
    expect(Object.keys(withFiling.keyFigures)).toHaveLength(KEY_FIGURES.length + 1);
    expect(Object.values(withFiling.keyFigures).filter((v) => v !== null)).toEqual(['2024-12-31']);
    expect((JSON.parse(written({ ...base, documentKey: null })) as { keyFigures: unknown }).keyFigures).toBeNull();
  });
});

/** The sparse row as the columns write it (`fields=`). */
function writtenSparse(row: ScreenerRow, fields: ScreenerFields): string {
  const columns = fields.figures.map((f) => {
    const v = row.figures[figureJsonKey(KEY_FIGURES[f]!)];
    return Float64Array.of(v == null ? Number.NaN : Number(v));
  });
  const names = bytes(`x${JSON.stringify(row.name)}`);
  const w = new JsonWriter(16);
  writeSparseRowHead(w, {
    fnr: row.fnr, names, nameStart: 1, nameEnd: names.length, legalForm: bytes(codeAndTextJson(row.legalFormCode, row.legalFormText)),
    court: bytes(codeAndTextJson(row.courtCode, row.courtText)), city: bytes(JSON.stringify(row.city)), zipCode: bytes(JSON.stringify(row.zipCode)),
    isActive: row.isActive, isScheinunternehmen: row.isScheinunternehmen, hasEdikt: row.hasEdikt,
  }, fields);
  if (fields.keyFigures) {
    if (row.documentKey) writeSomeKeyFigures(w, bytes(JSON.stringify(row.documentDate)), fields.figures, columns, 0);
    else w.ascii('null');
  }
  w.ascii('}');
  return w.bytes().toString('utf8');
}

describe('sparse screener rows (fields=)', () => {
  const choose = (text: string) => {
    const parsed = parseScreenerFields(text);
    if (!('fields' in parsed)) throw new Error(`not accepted: ${text}`);
    return parsed.fields;
  };

  it('write the same JSON as the projected object, for any choice of names', () => {
    const r = rng(5);
    const row: ScreenerRow = { ...base, figures: Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), decimals[i % decimals.length]!])) };
    const rows = [row, { ...row, documentKey: null }, { ...row, isActive: false, hasEdikt: false, city: null }];
    const choices = ['fnr', 'keyFigures', 'documentDate', SCREENER_FIELD_NAMES.join(',')];
    for (let i = 0; i < 200; i++) choices.push(SCREENER_FIELD_NAMES.filter(() => r() < 0.2).join(',') || 'name');
    for (const text of choices) {
      const fields = choose(text);
      for (const one of rows) expect(writtenSparse(one, fields), text).toBe(JSON.stringify(projectScreenerRow(presentScreenerRow(one), fields)));
    }
  });

  it('name unknown names, once each, and refuse a list without names', () => {
    expect(parseScreenerFields('name, colour,guv.Nope ,colour,guv.Umsatzerloese')).toEqual({ unknown: ['colour', 'guv.Nope'] });
    expect(parseScreenerFields(' , ')).toEqual({ empty: true });
    // JSON keys are not parameter names: umsatzerloese is guv.Umsatzerloese here, as in filters and exports.
    expect(parseScreenerFields('umsatzerloese')).toEqual({ unknown: ['umsatzerloese'] });
  });
});

describe('JsonWriter.number', () => {
  it('prints every number as JSON.stringify does (cents fast path and the rest)', () => {
    const r = rng(11);
    const values = [0, -0, 0.01, 0.1, 0.05, -0.07, 1, 10, 100, 1e8, 1e8 + 0.5, 99999999.99, 100000000.01, 9999999999999.99, 1e13, 1e15, 1e21, 123.456, 1e-7, 5e-324, Number.MAX_VALUE];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(r() * 16);
      const v = Math.round(r() * magnitude * 100) / 100;
      values.push(r() < 0.2 ? -v : v, Math.floor(r() * magnitude), r() * magnitude);
    }
    const w = new JsonWriter(8);
    for (const v of values) w.number(v).ascii(',');
    expect(w.bytes().toString()).toBe(values.map((v) => JSON.stringify(v)).join(',') + ',');
  });

  it('prints NaN and the infinities as null, as JSON.stringify does', () => {
    const w = new JsonWriter();
    for (const v of [Number.NaN, Infinity, -Infinity]) w.number(v).ascii(',');
    expect(w.bytes().toString()).toBe('null,null,null,');
  });
});
