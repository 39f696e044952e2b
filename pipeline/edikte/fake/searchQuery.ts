// The full-text query language of Domino Access Services' `search=` parameter, as far as the IWG
// interface documents it: `[Feld]=Wert`, `>=`, `<=`, `>`, `<`, `[Feld] CONTAINS Wert`, `[Feld] IS PRESENT`,
// NOT, AND, OR and parentheses; dates written `dd.MM.yyyy` compare as dates. The fake upstream filters its
// documents with it; a query it cannot read is the caller's error (HTTP 400).
import { iwgDate } from '../iwgParser.js';

export class SearchSyntaxError extends Error {}

export type DocumentFilter = (doc: Record<string, unknown>) => boolean;

type Token = { kind: '(' | ')' } | { kind: 'field'; name: string } | { kind: 'op'; op: string } | { kind: 'word'; value: string; quoted: boolean };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c });
      i++;
    } else if (c === '[') {
      const end = query.indexOf(']', i);
      if (end < 0) throw new SearchSyntaxError(`unclosed [ at ${i}`);
      tokens.push({ kind: 'field', name: query.slice(i + 1, end).trim() });
      i = end + 1;
    } else if ('<>='.includes(c)) {
      const op = query.slice(i, i + 2) === '>=' || query.slice(i, i + 2) === '<=' ? query.slice(i, i + 2) : c;
      tokens.push({ kind: 'op', op });
      i += op.length;
    } else if (c === '"') {
      const end = query.indexOf('"', i + 1);
      if (end < 0) throw new SearchSyntaxError(`unclosed " at ${i}`);
      tokens.push({ kind: 'word', value: query.slice(i + 1, end), quoted: true });
      i = end + 1;
    } else {
      const m = /^[^\s()[\]<>="]+/.exec(query.slice(i))!;
      tokens.push({ kind: 'word', value: m[0], quoted: false });
      i += m[0].length;
    }
  }
  return tokens;
}

const GERMAN_DATE = /^\d{1,2}\.\d{1,2}\.\d{4}$/;

function fieldValues(doc: Record<string, unknown>, field: string): string[] {
  const v = doc[field];
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.filter((x) => typeof x === 'string' || typeof x === 'number').map(String);
}

function compare(op: string, a: string | number, b: string | number): boolean {
  switch (op) {
    case '=': return a === b;
    case '>=': return a >= b;
    case '<=': return a <= b;
    case '>': return a > b;
    default: return a < b;
  }
}

function comparison(field: string, op: string, value: string): DocumentFilter {
  if (GERMAN_DATE.test(value)) {
    const wanted = iwgDate(value);
    if (!wanted) throw new SearchSyntaxError(`not a date: ${value}`);
    return (doc) => fieldValues(doc, field).some((v) => {
      const d = iwgDate(v);
      return d !== null && compare(op, d, wanted);
    });
  }
  const number = Number(value);
  if (value !== '' && Number.isFinite(number)) return (doc) => fieldValues(doc, field).some((v) => v.trim() !== '' && compare(op, Number(v), number));
  const folded = value.toLowerCase();
  return (doc) => fieldValues(doc, field).some((v) => compare(op, v.toLowerCase(), folded));
}

/** Reads a query into a filter; throws SearchSyntaxError when it does not parse. */
export function parseSearch(query: string): DocumentFilter {
  const tokens = tokenize(query);
  let at = 0;
  const peekWord = (word: string) => {
    const t = tokens[at];
    return t?.kind === 'word' && !t.quoted && t.value.toUpperCase() === word;
  };
  const expect = <K extends Token['kind']>(kind: K): Extract<Token, { kind: K }> => {
    const t = tokens[at++];
    if (t?.kind !== kind) throw new SearchSyntaxError(`expected ${kind} at token ${at}`);
    return t as Extract<Token, { kind: K }>;
  };

  const primary = (): DocumentFilter => {
    if (peekWord('NOT')) {
      at++;
      const inner = primary();
      return (doc) => !inner(doc);
    }
    if (tokens[at]?.kind === '(') {
      at++;
      const inner = or();
      expect(')');
      return inner;
    }
    const { name } = expect('field');
    if (peekWord('CONTAINS')) {
      at++;
      const needle = expect('word').value.toLowerCase();
      return (doc) => fieldValues(doc, name).some((v) => v.toLowerCase().includes(needle));
    }
    if (peekWord('IS')) {
      at++;
      if (!peekWord('PRESENT')) throw new SearchSyntaxError('expected PRESENT after IS');
      at++;
      return (doc) => fieldValues(doc, name).length > 0;
    }
    const { op } = expect('op');
    return comparison(name, op, expect('word').value);
  };
  const and = (): DocumentFilter => {
    const parts = [primary()];
    while (peekWord('AND')) {
      at++;
      parts.push(primary());
    }
    return parts.length === 1 ? parts[0]! : (doc) => parts.every((p) => p(doc));
  };
  const or = (): DocumentFilter => {
    const parts = [and()];
    while (peekWord('OR')) {
      at++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0]! : (doc) => parts.some((p) => p(doc));
  };

  if (tokens.length === 0) throw new SearchSyntaxError('empty query');
  const filter = or();
  if (at !== tokens.length) throw new SearchSyntaxError(`unexpected token ${at + 1} of ${tokens.length}`);
  return filter;
}
