// One-pass XML reader for the common case of the two hot parses (SOAP responses, annual accounts).
//
// XMLValidator followed by fast-xml-parser walked every document twice, the parser character by
// character, and they were the largest CPU item of ingestion. This reader checks well-formedness and
// builds the very tree fast-xml-parser builds with the options of soapResponse.ts/annualAccountParser.ts
// (removeNSPrefix, `@_` attributes, `#text`, trimmed values, no value parsing, the five XML entities,
// stop nodes kept raw) in one pass.
//
// It accepts a strict subset only: ASCII names with at most one prefix, quoted attributes, the five
// predefined entities, comments, one leading XML declaration. Anything else (CDATA, DOCTYPE, numeric
// character references, processing instructions, odd names, and everything malformed) returns null,
// and the caller runs the validator and fast-xml-parser as before: their results and error messages
// stay the reference, this is only a shortcut for documents both would accept. Equality with
// fast-xml-parser's output, key order included, is tested in test/unit/firmenbuchSoap.test.ts.
//
// The fake upstream reads requests and its stored responses the same way into an ordered tree
// (parseXmlOrderedFast: fast-xml-parser's preserveOrder output, untrimmed).

export interface FastXmlProfile {
  /** Local names that always become arrays (fast-xml-parser `isArray`); `true` = every element. */
  readonly arrays: ReadonlySet<string> | true;
  /** Local names kept as raw text below the root (fast-xml-parser `stopNodes: ['*.NAME']`). */
  readonly stopNodes: ReadonlySet<string>;
}

type Value = string | Record<string, unknown>;

/** What the scanner reports; a builder returns false from `open` to give up on the document. */
interface Builder {
  /** A start tag. `attrs` holds raw names and decoded, untrimmed values: [name, value, name, value, ...]. */
  open(raw: string, local: string, attrs: string[] | null, selfClosing: boolean): boolean;
  /** Decoded text between two pieces of markup inside the root (comments are not markup here). */
  text(piece: string): void;
  /** The end tag of the innermost open element. */
  close(): void;
  /** A stop node below the root: its content raw (undecoded, untrimmed). */
  stop(local: string, attrs: string[] | null, content: string): void;
}

const ATTR_PREFIX = '@_';
const TEXT = '#text';
/** fast-xml-parser throws beyond 100 open elements; the fallback reproduces that. */
const MAX_DEPTH = 100;
/** Names fast-xml-parser refuses or renames (prototype members): left to it. */
const UNSAFE_NAMES = new Set([
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
]);
/** `<?xml version="1.0" encoding="…"?>` with plain quoted pseudo-attributes only. */
const XML_DECLARATION = /^<\?xml(?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"<>?]*"|'[^'<>?]*'))*\s*\?>/;

const GT = 62;
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;
const EQUALS = 61;
const DQUOTE = 34;
const SQUOTE = 39;
const COLON = 58;

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;
}

/** The validator's whitespace: space, tab, LF, CR. */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function isBlank(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** End of a name starting at `i` (ASCII, at most one colon inside), or -1. */
function nameEnd(s: string, i: number): number {
  if (!isNameStart(s.charCodeAt(i))) return -1;
  let colon = false;
  let j = i + 1;
  for (;;) {
    const c = s.charCodeAt(j);
    if (isNameChar(c)) {
      j++;
    } else if (c === COLON && !colon && isNameStart(s.charCodeAt(j + 1))) {
      colon = true;
      j += 2;
    } else {
      return j;
    }
  }
}

function localName(raw: string): string {
  const colon = raw.indexOf(':');
  return colon < 0 ? raw : raw.slice(colon + 1);
}

/** The five predefined entities decoded; null for any other `&` (left to the fallback). */
function decodeEntities(s: string): string | null {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    let ch: string;
    let len: number;
    if (s.startsWith('amp;', amp + 1)) {
      ch = '&';
      len = 5;
    } else if (s.startsWith('lt;', amp + 1)) {
      ch = '<';
      len = 4;
    } else if (s.startsWith('gt;', amp + 1)) {
      ch = '>';
      len = 4;
    } else if (s.startsWith('quot;', amp + 1)) {
      ch = '"';
      len = 6;
    } else if (s.startsWith('apos;', amp + 1)) {
      ch = "'";
      len = 6;
    } else {
      return null;
    }
    out += s.slice(last, amp) + ch;
    last = amp + len;
    amp = s.indexOf('&', last);
  }
  return out + s.slice(last);
}

/**
 * Checks the document and reports it to `builder`; false when it is outside the subset (or
 * malformed). `stopNodes` are local names whose content below the root is not parsed.
 */
function scan(input: string, builder: Builder, stopNodes: ReadonlySet<string> | null): boolean {
  // fast-xml-parser normalises line ends before parsing; the validator treats CR as whitespace.
  const xml = input.indexOf('\r') >= 0 ? input.replace(/\r\n?/g, '\n') : input;
  const n = xml.length;
  const open: string[] = [];
  let rootDone = false;
  let i = 0;

  if (xml.startsWith('<?xml')) {
    const declaration = XML_DECLARATION.exec(xml);
    if (!declaration) return false;
    i = declaration[0].length;
  }

  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      if (open.length === 0) {
        if (!isBlank(xml, i, textEnd)) return false;
      } else {
        const piece = decodeEntities(xml.slice(i, textEnd));
        if (piece === null) return false;
        builder.text(piece);
      }
    }
    if (lt < 0) break;
    const c1 = xml.charCodeAt(lt + 1);

    if (c1 === SLASH) {
      const raw = open.pop();
      if (raw === undefined) return false;
      const end = nameEnd(xml, lt + 2);
      if (end < 0 || end - (lt + 2) !== raw.length || !xml.startsWith(raw, lt + 2)) return false;
      let j = end;
      while (isSpace(xml.charCodeAt(j))) j++;
      if (xml.charCodeAt(j) !== GT) return false;
      builder.close();
      if (open.length === 0) rootDone = true;
      i = j + 1;
      continue;
    }

    if (c1 === BANG) {
      if (!xml.startsWith('--', lt + 2)) return false; // CDATA, DOCTYPE
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return false;
      i = end + 3;
      continue;
    }

    if (c1 === QUESTION) return false;

    // Start tag.
    const nameStop = nameEnd(xml, lt + 1);
    if (nameStop < 0) return false;
    const raw = xml.slice(lt + 1, nameStop);
    const local = localName(raw);
    if (UNSAFE_NAMES.has(local) || UNSAFE_NAMES.has(raw)) return false;
    if (open.length === 0 && rootDone) return false; // a second root
    if (open.length >= MAX_DEPTH) return false;

    let attrs: string[] | null = null;
    let j = nameStop;
    let selfClosing = false;
    for (;;) {
      const wsStart = j;
      while (isSpace(xml.charCodeAt(j))) j++;
      const c = xml.charCodeAt(j);
      if (c === GT) break;
      if (c === SLASH) {
        if (xml.charCodeAt(j + 1) !== GT) return false;
        selfClosing = true;
        j++;
        break;
      }
      if (j === wsStart) return false; // attributes need whitespace before them
      const attrEnd = nameEnd(xml, j);
      if (attrEnd < 0) return false;
      const attrRaw = xml.slice(j, attrEnd);
      if (UNSAFE_NAMES.has(attrRaw) || UNSAFE_NAMES.has(localName(attrRaw))) return false;
      j = attrEnd;
      while (isSpace(xml.charCodeAt(j))) j++;
      if (xml.charCodeAt(j) !== EQUALS) return false;
      j++;
      while (isSpace(xml.charCodeAt(j))) j++;
      const quote = xml.charCodeAt(j);
      if (quote !== DQUOTE && quote !== SQUOTE) return false;
      const close = xml.indexOf(quote === DQUOTE ? '"' : "'", j + 1);
      if (close < 0) return false;
      if (attrs === null) attrs = [];
      else for (let a = 0; a < attrs.length; a += 2) if (attrs[a] === attrRaw) return false; // repeated: the validator rejects it
      const value = decodeEntities(xml.slice(j + 1, close));
      if (value === null) return false;
      attrs.push(attrRaw, value);
      j = close + 1;
    }
    const tagEnd = j; // at '>'

    if (open.length > 0 && stopNodes !== null && stopNodes.has(local)) {
      let content = '';
      if (!selfClosing) {
        const contentEnd = xml.indexOf('<', tagEnd + 1);
        if (contentEnd < 0) return false;
        content = xml.slice(tagEnd + 1, contentEnd);
        if (content.indexOf('&') >= 0) return false;
        if (xml.charCodeAt(contentEnd + 1) !== SLASH || !xml.startsWith(raw, contentEnd + 2)) return false;
        let k = contentEnd + 2 + raw.length;
        while (isSpace(xml.charCodeAt(k))) k++;
        if (xml.charCodeAt(k) !== GT) return false;
        i = k + 1;
      } else {
        i = tagEnd + 1;
      }
      builder.stop(local, attrs, content);
      continue;
    }

    i = tagEnd + 1;
    if (!builder.open(raw, local, attrs, selfClosing)) return false;
    if (selfClosing) {
      if (open.length === 0) rootDone = true;
    } else {
      open.push(raw);
    }
  }

  return open.length === 0 && rootDone;
}

// ---------------------------------------------------------------------------------------------------
// fast-xml-parser's default tree (removeNSPrefix, `@_` attributes, trimmed values)

interface Frame {
  local: string;
  children: Record<string, unknown> | null;
  text: string | undefined;
  attrs: Record<string, string> | null;
}

/** fast-xml-parser's node2json: text only -> string, nothing -> '', else children, `#text`, attributes. */
function finish(children: Record<string, unknown> | null, text: string | undefined, attrs: Record<string, string> | null): Value {
  if (attrs) {
    const obj = children ?? {};
    if (text !== undefined) obj[TEXT] = text;
    for (const key in attrs) obj[key] = attrs[key];
    return obj;
  }
  if (!children) return text ?? '';
  if (text !== undefined) children[TEXT] = text;
  return children;
}

function attach(target: Record<string, unknown>, name: string, value: Value, arrays: ReadonlySet<string> | true): void {
  const existing = target[name];
  if (existing === undefined) target[name] = arrays === true || arrays.has(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else target[name] = [existing, value];
}

/** Attributes by local name with the `@_` prefix, trimmed; namespace declarations dropped. */
function prefixedAttributes(attrs: string[] | null): Record<string, string> | null {
  if (attrs === null) return null;
  let out: Record<string, string> | null = null;
  for (let a = 0; a < attrs.length; a += 2) {
    const name = attrs[a]!;
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    (out ??= {})[ATTR_PREFIX + localName(name)] = attrs[a + 1]!.trim();
  }
  return out;
}

class TreeBuilder implements Builder {
  readonly doc: Record<string, unknown> = {};
  private readonly stack: Frame[] = [];
  private top: Frame | null = null;
  // Text since the last tag: fast-xml-parser joins it across comments, then trims it.
  private pending = '';

  constructor(private readonly arrays: ReadonlySet<string> | true) {}

  private flush(): void {
    if (this.pending === '') return;
    const text = this.pending.trim();
    this.pending = '';
    if (text === '') return;
    const top = this.top!;
    top.text = top.text === undefined ? text : top.text + text;
  }

  private add(local: string, value: Value): void {
    attach(this.top ? (this.top.children ??= {}) : this.doc, local, value, this.arrays);
  }

  open(_raw: string, local: string, attrs: string[] | null, selfClosing: boolean): boolean {
    if (this.top) this.flush();
    const prefixed = prefixedAttributes(attrs);
    if (selfClosing) {
      this.add(local, finish(null, undefined, prefixed));
      return true;
    }
    const frame: Frame = { local, children: null, text: undefined, attrs: prefixed };
    this.stack.push(frame);
    this.top = frame;
    return true;
  }

  text(piece: string): void {
    this.pending += piece;
  }

  close(): void {
    this.flush();
    const frame = this.stack.pop()!;
    this.top = this.stack.length > 0 ? this.stack[this.stack.length - 1]! : null;
    this.add(frame.local, finish(frame.children, frame.text, frame.attrs));
  }

  stop(local: string, attrs: string[] | null, content: string): void {
    this.flush();
    // Raw content, untrimmed; empty content is no text at all.
    this.add(local, finish(null, content === '' ? undefined : content, prefixedAttributes(attrs)));
  }
}

/**
 * The document as fast-xml-parser would return it for `profile`, or null when the document is not
 * in the subset read here (then it may still be well-formed: ask the validator).
 */
export function parseXmlFast(input: string, profile: FastXmlProfile): Record<string, unknown> | null {
  const builder = new TreeBuilder(profile.arrays);
  return scan(input, builder, profile.stopNodes) ? builder.doc : null;
}

// ---------------------------------------------------------------------------------------------------
// fast-xml-parser's preserveOrder tree, untrimmed, names and attributes as written

/** An element as written: raw name, attributes in order (`[name, value, ...]`), text and elements in order. */
export interface OrderedElement {
  name: string;
  attrs: string[];
  children: Array<OrderedElement | string>;
}

class OrderedBuilder implements Builder {
  root: OrderedElement | null = null;
  private readonly stack: OrderedElement[] = [];
  // Text since the last tag, joined across comments; kept when not empty, whitespace included.
  private pending = '';

  private flush(): void {
    if (this.pending === '') return;
    this.stack[this.stack.length - 1]!.children.push(this.pending);
    this.pending = '';
  }

  open(raw: string, _local: string, attrs: string[] | null, selfClosing: boolean): boolean {
    const element: OrderedElement = { name: raw, attrs: attrs ?? [], children: [] };
    const parent = this.stack[this.stack.length - 1];
    if (parent) {
      this.flush();
      parent.children.push(element);
    } else {
      this.root = element;
    }
    if (!selfClosing) this.stack.push(element);
    return true;
  }

  text(piece: string): void {
    this.pending += piece;
  }

  close(): void {
    this.flush();
    this.stack.pop();
  }

  stop(): void {
    throw new Error('no stop nodes in ordered reading');
  }
}

/** The root element in document order (what fast-xml-parser's preserveOrder gives with trimValues false), or null as above. */
export function parseXmlOrderedFast(input: string): OrderedElement | null {
  const builder = new OrderedBuilder();
  return scan(input, builder, null) ? builder.root : null;
}
