// fast-check arbitraries for API requests: for one operation of the OpenAPI document, its path and
// query parameters and its body, each drawn as a valid value (from the schema and from ids that
// exist), a boundary value or a hostile one (NUL, 1e309, -0, NaN, unicode, injection strings, path
// tricks, prototype names, oversized and deeply nested bodies, odd content types), with the
// caller's key, a service key, an unknown key or none.
import fc from 'fast-check';
import type { JsonSchema, Operation } from './operations.js';

export type Auth = 'account' | 'service' | 'none' | 'invalid';

export interface FuzzRequest {
  operation: Operation;
  method: string;
  /** The path and query as sent, already encoded (may hold raw tricks like %00 or %ff). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  auth: Auth;
}

/** Values that exist in the fuzz database, so valid requests reach data and not only 404s. */
export interface KnownValues {
  fnrs: string[];
  personIds: string[];
  documentKeys: string[];
  listIds: string[];
  queryIds: string[];
  changeIds: string[];
  tradeKeys: string[];
  gisaZahlen: string[];
}

export const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '1e309', '-1e309', '-0', 'NaN', 'Infinity', '-1', '0', '1.5', ' 1 ', '0x10', '1_000',
  '9007199254740993', '9'.repeat(400), 'true', 'null', 'undefined', '[]', '{}', "' OR '1'='1", '"; DROP TABLE company; --',
  '<script>alert(1)</script>', '../../../../etc/passwd', '..', '.', '\\', '/', '%', '_', '%_%', '*', '?', '#', '&', '=',
  'ä', 'ÄÖÜß', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u202e', '\ud800', '\uffff', 'Ｆｕｌｌ', 'x'.repeat(10_000), 'a b', '\r\n', '\t',
  'constructor', '__proto__', 'toString', 'hasOwnProperty', '$where', '{"$gt":""}', '2025-02-30', '2025-13-01', '0000-00-00',
  '2025-01-01T25:00:00Z', '9999-12-31', '-2025-01-01', '30435h', '030435 H', 'FN 30435h', '00000000-0000-0000-0000-000000000000',
];

/** Raw (already percent-encoded or malformed) pieces sent as they are in paths and queries. */
const RAW_TRICKS = ['%00', '%ff', '%', '%2', '%zz', '%2e%2e', '%2F', 'a%2Fb', '..', '.', '%c0%ae', '%25', '%u0041', '+', '%20'];

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '__defineGetter__'];

/** Percent-encodes everything outside the unreserved set, a lone surrogate as U+FFFD's bytes. */
export function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);

/** A value the schema accepts, roughly: the fuzzer's "valid" branch (bounds and enums honoured). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => validValue(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -5, -1_000_000), max: Math.min(schema.maximum ?? 2000, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validValue(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': {
      if (depth > 3 || !schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 3 });
      const props = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, validValue(s, depth + 1)]));
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default: {
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date') return fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (schema.format === 'date-time') return fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
      const examples = [schema.example, schema.default].filter((v): v is string => typeof v === 'string');
      const text = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 12, 40) });
      return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), text) : text;
    }
  }
}

/** Boundary values of a schema: just outside its bounds, the empty and the huge. */
function boundaryValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const values: unknown[] = ['', 0, -1, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER + 2, 1e308, 0.1];
  if (schema.minimum !== undefined) values.push(schema.minimum - 1, schema.minimum);
  if (schema.maximum !== undefined) values.push(schema.maximum + 1, schema.maximum);
  if (schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength + 1));
  if (schema.maxItems !== undefined) values.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `${i}a`));
  if (schema.minItems !== undefined && schema.minItems > 0) values.push([]);
  return fc.constantFrom(...values);
}

/** valid (most), boundary or hostile. */
export function anyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: validValue(schema) }, { weight: 2, arbitrary: boundaryValue(schema) }, { weight: 3, arbitrary: hostileString });
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A path parameter: a known id of its kind, a plausible value, a hostile one (encoded) or a raw trick. */
function pathValue(name: string, schema: JsonSchema, known: KnownValues): fc.Arbitrary<string> {
  const pools: Record<string, string[]> = {
    fnr: known.fnrs, personId: known.personIds, documentKey: known.documentKeys, tradeKey: known.tradeKeys,
    gisaZahl: known.gisaZahlen, id: [...known.listIds, ...known.queryIds, ...known.changeIds],
  };
  const pool = pools[name] ?? [];
  return fc.oneof(
    { weight: pool.length > 0 ? 6 : 0, arbitrary: fc.constantFrom(...(pool.length > 0 ? pool : ['x'])).map(encode) },
    { weight: 3, arbitrary: anyValue(schema).map((v) => encode(asText(v))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_TRICKS) },
  );
}

/** The query string: known parameters (valid, boundary, hostile, repeated), sometimes unknown ones. */
function queryString(op: Operation, known: KnownValues): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const one = (name: string, schema: JsonSchema) =>
    fc.oneof(
      { weight: 9, arbitrary: (name === 'fnr' && known.fnrs.length > 0 ? fc.oneof(fc.constantFrom(...known.fnrs), anyValue(schema)) : anyValue(schema)).map((v) => `${encode(name)}=${encode(asText(v))}`) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_TRICKS).map((raw) => `${encode(name)}=${raw}`) },
    );
  const chosen: fc.Arbitrary<string[]> = params.length === 0
    ? fc.constant([])
    : fc.subarray(params, { maxLength: Math.min(4, params.length) }).chain((ps) => (ps.length === 0 ? fc.constant([]) : fc.tuple(...ps.map((p) => one(p.name, p.schema))).map((xs) => [...xs])));
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, 'unknownParam', 'page[]', 'a.b').map((n) => [`${encode(n)}=1`]) },
    { weight: 1, arbitrary: params.length > 0 ? fc.constantFrom(...params).map((p) => [`${p.name}=1`, `${p.name}=2`]) : fc.constant([]) },
  );
  return fc.tuple(chosen, extra).map(([a, b]) => [...a, ...b].join('&'));
}

/** Deeply nested JSON (objects or arrays), as text. */
const deepJson = fc.constantFrom(200, 5000, 100_000).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

function bodyText(op: Operation): fc.Arbitrary<string | undefined> {
  if (!op.body) return fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('{"x":1}') });
  const schema = op.body;
  const props = Object.keys(schema.properties ?? {});
  const mutated = validValue(schema).chain((value) => {
    const obj = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    return fc.oneof(
      { weight: 5, arbitrary: fc.constant(obj) },
      { weight: 2, arbitrary: props.length > 0 ? fc.tuple(fc.constantFrom(...props), anyValue({})).map(([k, v]) => ({ ...obj, [k]: v })) : fc.constant(obj) },
      { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, 'extra').map((k) => JSON.parse(`{${JSON.stringify(k)}:1,${JSON.stringify(obj).slice(1)}`.replace(/,}$/, '}')) as unknown) },
      { weight: 1, arbitrary: props.length > 0 ? fc.constantFrom(...props).map((k) => Object.fromEntries(Object.entries(obj).filter(([key]) => key !== k))) : fc.constant(obj) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], 'text', 42, true, [obj]) },
    );
  });
  return fc.oneof(
    { weight: 14, arbitrary: mutated.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', '{bad json}', '', '\uFEFF{}', '{"name":"a","name":"b"}', '{"name":"\\ud800"}', 'null') },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.constant(`{"names":["${'x'.repeat(1_100_000)}"]}`) },
  );
}

const CONTENT_TYPES = [
  'application/json', 'application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/json',
  'application/vnd.fuzz+json', 'APPLICATION/JSON', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded', '', 'application/json; charset=utf-16',
];
const ACCEPTS = ['application/json', 'text/plain', 'text/json', '*/*', 'application/xml', 'text/csv', ';;;', ''];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function requestFor(op: Operation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = pathParams.length === 0
    ? fc.constant(op.fullTemplate)
    : fc.tuple(...pathParams.map((p) => pathValue(p.name, p.schema, known))).map((values) =>
        pathParams.reduce((t, p, i) => t.replace(`{${p.name}}`, values[i]!), op.fullTemplate));
  return fc.record({
    path, query: queryString(op, known), body: bodyText(op),
    method: fc.oneof({ weight: 19, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    auth: fc.constantFrom<Auth>(...(['account', 'account', 'account', 'account', 'account', 'account', 'account', 'service', 'none', 'invalid'] as Auth[])),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    accept: fc.constantFrom(...ACCEPTS),
    correlationId: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom('fuzz-1', 'x'.repeat(200), 'a b', '{}') }),
  }).map((r) => {
    const headers: Record<string, string> = {};
    if (r.body !== undefined && r.contentType !== '') headers['content-type'] = r.contentType;
    if (r.accept !== '') headers.accept = r.accept;
    if (r.correlationId !== undefined) headers['x-correlation-id'] = r.correlationId;
    return {
      operation: op, method: r.method, path: r.query ? `${r.path}?${r.query}` : r.path, headers, auth: r.auth,
      ...(r.body !== undefined ? { body: r.body } : {}),
    };
  });
}

/** One request to any operation, the operations weighted equally. */
export function anyRequest(ops: Operation[], known: KnownValues): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...ops.map((op) => requestFor(op, known)));
}
