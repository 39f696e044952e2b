// Filed annual accounts (Jahresabschluss XML) -> the 47 screener figures (docs/contract/key-figures.md).
//
// Pure function of the input string: no I/O, no clock, no randomness. Three source variants are read
// (docs/contract/upstream-interfaces.md section 2):
//   * legacy FinanzOnline / JAb 3.x: positions named by their code (`HGB_224_2_A`), current-year value in
//     the position's own `POSTENZEILE/BETRAG`, `GJ/WERT_TSD = j` means thousands;
//   * the "firmenbuch_2025" variant of the same namespace: `GESCHAEFTSJAHR` instead of `GJ`, current-year
//     value in `BETRAG_GJ` (under `POSTENZEILE` or directly under the position);
//   * JAb 4.0 (`ns://justiz.gv.at/Bilanzierung/v4.0/Bilanz`): semantic element names, current-year value in
//     `POSTENZEILE/BETRAG_GJ`, unit in `GESCHAEFTSJAHR/EINGABEDARSTELLUNG/DARSTELLUNG_EINGEREICHT/EINHEIT`.
// Positions are matched by local name wherever they sit (prefixes are stripped, never interpreted). A
// position's value is only ever its *own* POSTENZEILE (a direct child), never one of a sub-position. The
// prior-year column (`BETRAG_VJ`) is never read. Amounts are scaled with exact decimal arithmetic.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { KEY_FIGURES, emptyFigures, figureJsonKey } from '../../schemas/keyFigures.js';
import type { KeyFigureDefinition } from '../../schemas/keyFigures.js';
import type { ParsedAnnualAccount } from '../../schemas/firmenbuchRecords.js';
import { canonicalFnr, registerDate } from '../../schemas/identifiers.js';
import { parseXmlFast, type FastXmlProfile } from './fastXml.js';
import { UnrecoverableInputError } from '../jobs/errors.js';

// ---------------------------------------------------------------------------------------------------
// Public types

/** Unrecoverable input: not XML, invalid XML, or not an annual-account filing. Never retry. */
export class AnnualAccountParseError extends UnrecoverableInputError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, undefined, options);
  }
}

// ---------------------------------------------------------------------------------------------------
// Exact decimals (value = coef * 10^exp) on BigInt; no floats anywhere near money.

interface Decimal {
  coef: bigint;
  exp: number;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function parseDecimal(raw: string): Decimal | null {
  const m = DECIMAL_RE.exec(raw);
  if (!m) return null;
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  if (intPart === '' && fracPart === '') return null;
  const coef = BigInt(intPart + fracPart || '0');
  return { coef: m[1] === '-' ? -coef : coef, exp: -fracPart.length };
}

function formatDecimal(d: Decimal): string {
  let { coef, exp } = d;
  if (coef === 0n) return '0';
  while (exp < 0 && coef % 10n === 0n) {
    coef /= 10n;
    exp += 1;
  }
  const negative = coef < 0n;
  const digits = (negative ? -coef : coef).toString();
  let out: string;
  if (exp >= 0) {
    out = digits + '0'.repeat(exp);
  } else {
    const padded = digits.padStart(-exp + 1, '0');
    const cut = padded.length + exp;
    out = `${padded.slice(0, cut)}.${padded.slice(cut)}`;
  }
  return negative ? `-${out}` : out;
}

function compareDecimal(a: Decimal, b: Decimal): number {
  const exp = Math.min(a.exp, b.exp);
  const ac = a.coef * 10n ** BigInt(a.exp - exp);
  const bc = b.coef * 10n ** BigInt(b.exp - exp);
  return ac === bc ? 0 : ac < bc ? -1 : 1;
}

/**
 * Canonical decimal string of `raw * 10^pow10`: no exponent, no trailing fractional zeros, no trailing
 * point, `-0` -> `0`. Null when `raw` is not a plain decimal (`[+-]digits[.digits]`).
 */
export function canonicalDecimal(raw: string, pow10 = 0): string | null {
  const d = parseDecimal(raw.trim());
  return d ? formatDecimal({ coef: d.coef, exp: d.exp + pow10 }) : null;
}

// ---------------------------------------------------------------------------------------------------
// XML access. Every element is an array (isArray), so a node's child `X` is always `XmlValue[]`.

type XmlValue = string | XmlNode;
interface XmlNode {
  [key: string]: XmlValue[] | string | undefined;
}

const TEXT_KEY = '#text';
const ATTR_PREFIX = '@_';

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: false,
  attributeNamePrefix: ATTR_PREFIX,
  textNodeName: TEXT_KEY,
  // Callbacks get a matcher instead of a jPath string built per tag, which is faster.
  jPath: false,
  // Uniform shape: every element (never an attribute) is an array, however often it occurs.
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
  // The embedded PDF notes (JAb 4.0 `ANHANG`, base64 up to 20 MB) are never looked into.
  stopNodes: ['*.ANHANG'],
});

/** The same tree shape for the one-pass reader (fastXml.ts). */
const FAST_PROFILE: FastXmlProfile = { arrays: true, stopNodes: new Set(['ANHANG']) };

function isNode(v: XmlValue | undefined): v is XmlNode {
  return typeof v === 'object' && v !== null;
}

function children(node: XmlNode, name: string): XmlValue[] {
  const v = node[name];
  return Array.isArray(v) ? v : [];
}

function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (!node) return undefined;
  for (const c of children(node, name)) if (isNode(c)) return c;
  return undefined;
}

function textOf(v: XmlValue | undefined): string | null {
  if (v === undefined) return null;
  const raw = typeof v === 'string' ? v : v[TEXT_KEY];
  if (typeof raw !== 'string') return null;
  const t = raw.trim();
  return t === '' ? null : t;
}

/** Trimmed text of the first direct child `name` (null when absent or blank). */
function childText(node: XmlNode | undefined, name: string): string | null {
  if (!node) return null;
  return textOf(children(node, name)[0]);
}

function attr(node: XmlNode | undefined, name: string): string | null {
  if (!node) return null;
  const v = node[ATTR_PREFIX + name];
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

interface IndexEntry {
  node: XmlNode;
  /** Local name of the parent element (null for the root). */
  parent: string | null;
}

/** Real filings nest about 15 levels deep; anything far deeper is not an annual account. */
const MAX_DEPTH = 200;

/** One walk over the tree: local name -> element nodes in (pre-order) document order. */
function buildIndex(root: XmlNode, rootName: string): Map<string, IndexEntry[]> {
  const index = new Map<string, IndexEntry[]>();
  const visit = (node: XmlNode, name: string, parent: string | null, depth: number): void => {
    if (depth > MAX_DEPTH) throw new AnnualAccountParseError(`elements nested deeper than ${MAX_DEPTH} levels`);
    const list = index.get(name);
    const entry: IndexEntry = { node, parent };
    if (list) list.push(entry);
    else index.set(name, [entry]);
    for (const key in node) {
      if (key === TEXT_KEY || key.startsWith(ATTR_PREFIX)) continue;
      const value = node[key];
      if (!Array.isArray(value)) continue;
      for (const c of value) if (isNode(c)) visit(c, key, name, depth + 1);
    }
  };
  visit(root, rootName, null, 0);
  return index;
}

// ---------------------------------------------------------------------------------------------------
// Variant-specific rules

type Variant = 'legacy' | 'fb2025' | 'jab4';

/** JAb 4.0 `EINHEIT` -> power of ten. */
const JAB4_UNIT_POW10: Readonly<Record<string, number>> = { E: 0, HE: 2, TE: 3, ZTE: 4, HTE: 5, ME: 6 };

const BILANZ_SUMME: KeyFigureDefinition | undefined = KEY_FIGURES.find((f) => f.name === 'BilanzSumme');

/** Cross-check partner of BilanzSumme (total assets). */
const TOTAL_PASSIVA: Readonly<Record<'legacy' | 'jab4', string>> = { legacy: 'HGB_224_3', jab4: 'PASSIVA' };

/**
 * Element names that are only the figure's position under a specific parent. JAb 4.0 repeats
 * `DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR` under most liability sub-positions (and under
 * `SONSTIGE_AUSLEIHUNGEN`/`ANLEIHEN`); the total "of which due within one year" is the one directly
 * under `VERBINDLICHKEITEN`.
 */
const REQUIRED_PARENT: Readonly<Record<string, string>> = {
  DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR: 'VERBINDLICHKEITEN',
};

/** P&L wrappers -> method. */
const PNL_WRAPPERS: Readonly<Record<'legacy' | 'jab4', readonly (readonly [string, 'GKV' | 'UKV'])[]>> = {
  legacy: [['GUV', 'GKV'], ['GUV_U', 'UKV']],
  jab4: [['GUV_GKV', 'GKV'], ['GUV_UKV', 'UKV']],
};

/** The raw current-year amount of a position element (its own POSTENZEILE only), or null. */
function currentAmount(node: XmlNode, variant: Variant): string | null {
  const pz = child(node, 'POSTENZEILE');
  switch (variant) {
    case 'legacy':
      return childText(pz, 'BETRAG');
    case 'jab4':
      return childText(pz, 'BETRAG_GJ');
    case 'fb2025':
      return childText(pz, 'BETRAG_GJ') ?? childText(node, 'BETRAG_GJ');
  }
}

/** Top-level elements that only a JAb 4.0 UEBERMITTLUNG has. */
const JAB4_TOP_LEVEL = ['ALLGEMEINE_ANGABEN', 'BILANZ', 'ANLAGE1_AUSZUG_AUS_DER_BILANZ', 'ANLAGE3_AUSZUG_AUS_DER_BILANZ', 'GUV_GKV', 'GUV_UKV'];

/**
 * Decided on structure, not on the namespace (the parser strips prefixes and namespace declarations):
 * JAb 4.0 has `ALLGEMEINE_ANGABEN` and the statements directly under the root, JAb 3.x has
 * `BILANZ_GLIEDERUNG/ALLG_JUSTIZ`; its firmenbuch_2025 variant has `GESCHAEFTSJAHR` instead of `GJ`.
 */
function detectVariant(root: XmlNode): Variant | null {
  if (JAB4_TOP_LEVEL.some((name) => children(root, name).length > 0)) return 'jab4';
  const gliederung = child(root, 'BILANZ_GLIEDERUNG');
  const allg = child(gliederung, 'ALLG_JUSTIZ') ?? child(root, 'ALLG_JUSTIZ');
  if (!gliederung && !allg) return null;
  if (allg && !child(allg, 'GJ') && child(allg, 'GESCHAEFTSJAHR')) return 'fb2025';
  return 'legacy';
}

// ---------------------------------------------------------------------------------------------------
// Small helpers

/**
 * Joins register name lines. A line ending in `-` followed by a line starting in lower case is a word
 * split across lines (`Waren-` + `handel`), unless the next line starts a coordination (`Bau- und ...`).
 */
function joinNameLines(lines: readonly string[]): string | null {
  const parts = lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== '');
  if (parts.length === 0) return null;
  let out = parts[0]!;
  for (const next of parts.slice(1)) {
    const split = out.endsWith('-') && /^\p{Ll}/u.test(next) && !/^(und|oder|bzw\.?|sowie)\b/.test(next);
    out = split ? out.slice(0, -1) + next : `${out} ${next}`;
  }
  return out;
}

function first(index: Map<string, IndexEntry[]>, name: string): XmlNode | undefined {
  return index.get(name)?.[0]?.node;
}

// ---------------------------------------------------------------------------------------------------
// Entry point

/**
 * Parses one filed annual account. Throws {@link AnnualAccountParseError} for anything that is not a
 * well-formed annual-account filing (callers treat that as unrecoverable); everything else that is odd
 * about a filing ends up in `warnings`.
 */
export function parseAnnualAccount(xml: string): ParsedAnnualAccount {
  if (typeof xml !== 'string') throw new AnnualAccountParseError('input is not a string');
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (text.trim() === '') throw new AnnualAccountParseError('empty input');

  // One pass checks and reads the usual filing; anything outside its subset (or malformed) takes the
  // validator and fast-xml-parser, whose verdict and messages stay the reference.
  let doc = parseXmlFast(text, FAST_PROFILE) as XmlNode | null;
  if (!doc) {
    const validation = XMLValidator.validate(text);
    if (validation !== true) {
      const { code, msg, line, col } = validation.err;
      throw new AnnualAccountParseError(`invalid XML (${code} at ${line}:${col ?? '?'}): ${msg}`);
    }
    try {
      doc = parser.parse(text) as XmlNode;
    } catch (err) {
      throw new AnnualAccountParseError(`invalid XML: ${(err as Error).message}`, { cause: err });
    }
  }

  const rootNames = Object.keys(doc).filter((k) => !k.startsWith('?') && k !== TEXT_KEY);
  if (rootNames.length !== 1) throw new AnnualAccountParseError(`expected one root element, found ${rootNames.length}`);
  const rootName = rootNames[0]!;
  if (rootName !== 'UEBERMITTLUNG') throw new AnnualAccountParseError(`unknown root element <${rootName}>`);
  const rootValues = children(doc, rootName);
  const root: XmlNode = isNode(rootValues[0]) ? rootValues[0] : {};
  if (rootValues.length !== 1) throw new AnnualAccountParseError('expected one root element');

  const variant = detectVariant(root);
  if (!variant) throw new AnnualAccountParseError('UEBERMITTLUNG is neither a FinanzOnline (JAb 3.x) nor a JAb 4.0 filing');

  const index = buildIndex(root, rootName);
  const warnings: string[] = [];
  const format: 'legacy' | 'jab4' = variant === 'jab4' ? 'jab4' : 'legacy';

  // --- filing metadata -------------------------------------------------------------------------------
  let rawFnr: string | null;
  let companyName: string | null;
  let yearBlock: XmlNode | undefined;
  let currency: string | null;
  let sizeClass: string | null;
  let kind: string | null;
  let unit: string;
  let pow10: number;

  if (variant === 'jab4') {
    const allg = first(index, 'ALLGEMEINE_ANGABEN');
    const firmendaten = child(allg, 'FIRMENDATEN') ?? first(index, 'FIRMENDATEN');
    rawFnr = childText(firmendaten, 'FIRMENBUCHNUMMER');
    // Lines in SORTIERUNG order (document order among lines without a usable SORTIERUNG).
    const zeilen = children(child(firmendaten, 'FIRMENWORTLAUT') ?? {}, 'ZEILE').map((z, i) => {
      const order = Number(isNode(z) ? attr(z, 'SORTIERUNG') : null);
      return { text: textOf(z) ?? '', key: Number.isInteger(order) && order > 0 ? order : 1000 + i };
    });
    zeilen.sort((a, b) => a.key - b.key);
    companyName = joinNameLines(zeilen.map((z) => z.text));
    yearBlock = child(allg, 'GESCHAEFTSJAHR') ?? first(index, 'GESCHAEFTSJAHR');
    currency = childText(allg, 'BILANZ_WAEHRUNG') ?? textOf(index.get('BILANZ_WAEHRUNG')?.[0]?.node);
    sizeClass = childText(yearBlock, 'GROESSENKLASSE');
    kind = childText(allg, 'JAHRESABSCHLUSS_KONZERNABSCHLUSS');
    const einheit = childText(child(child(yearBlock, 'EINGABEDARSTELLUNG'), 'DARSTELLUNG_EINGEREICHT'), 'EINHEIT');
    if (einheit === null) {
      unit = 'E';
      pow10 = 0;
      warnings.push('EINHEIT missing; amounts taken as EUR (E)');
    } else if (einheit.toUpperCase() in JAB4_UNIT_POW10) {
      unit = einheit.toUpperCase();
      pow10 = JAB4_UNIT_POW10[unit]!;
    } else {
      unit = einheit;
      pow10 = 0;
      warnings.push(`unknown unit EINHEIT=${einheit}; amounts taken unscaled`);
    }
  } else {
    const allg = first(index, 'ALLG_JUSTIZ');
    const firma = child(allg, 'FIRMA') ?? first(index, 'FIRMA');
    rawFnr = childText(firma, 'FNR');
    const fname = child(firma, 'F_NAME');
    companyName = fname
      ? joinNameLines(children(fname, 'Z').map((z) => textOf(z) ?? '')) ?? textOf(fname)
      : childText(firma, 'F_NAME');
    yearBlock = child(allg, variant === 'fb2025' ? 'GESCHAEFTSJAHR' : 'GJ');
    currency = childText(allg, 'WAEHRUNG');
    const einordnung = attr(allg, 'EINORDNUNG');
    const einstufung = attr(allg, 'EINSTUFUNG');
    sizeClass = einordnung ?? einstufung;
    if (einordnung !== null && einstufung !== null && einordnung !== einstufung) {
      warnings.push(`size class EINORDNUNG=${einordnung} differs from EINSTUFUNG=${einstufung}; using EINORDNUNG`);
    }
    kind = childText(allg, 'ABSCHLUSSART');
    const wertTsd = childText(yearBlock, 'WERT_TSD');
    const thousands = wertTsd !== null && wertTsd.toLowerCase() === 'j';
    unit = thousands ? 'TSD' : 'E';
    pow10 = thousands ? 3 : 0;
  }

  let fnr: string | null = null;
  if (rawFnr !== null) {
    const c = canonicalFnr(rawFnr);
    if (!c) warnings.push(`unreadable FNR "${rawFnr}"`);
    else {
      fnr = c.fnr;
      if (!c.checkLetterValid) warnings.push(`FNR ${c.fnr} has an invalid check letter`);
    }
  } else {
    warnings.push('no FNR in filing');
  }

  const dateOf = (name: string): string | null => {
    const raw = childText(yearBlock, name);
    if (raw === null) return null;
    const d = registerDate(raw);
    if (d === null) warnings.push(`unreadable date ${name}="${raw}"`);
    return d;
  };
  const fiscalYearStart = dateOf('BEGINN');
  const fiscalYearEnd = dateOf('ENDE');
  if (fiscalYearEnd === null) warnings.push('no balance-sheet date (fiscal-year end)');

  if (currency !== null && currency.toUpperCase() !== 'EUR') {
    warnings.push(`currency ${currency} is not EUR; amounts kept as filed`);
  }

  // --- positions -------------------------------------------------------------------------------------
  // Parsed current-year amounts, memoised per element node (null = no usable amount).
  const amounts = new Map<XmlNode, Decimal | null>();
  const amountOf = (name: string, entry: IndexEntry): Decimal | null => {
    const cached = amounts.get(entry.node);
    if (cached !== undefined) return cached;
    const raw = currentAmount(entry.node, variant);
    let d: Decimal | null = null;
    if (raw !== null) {
      d = parseDecimal(raw);
      if (!d) warnings.push(`unparseable amount "${raw}" in ${name}`);
    }
    amounts.set(entry.node, d);
    return d;
  };

  let hasPositions = false;
  for (const [name, entries] of index) {
    if (name === 'POSTENZEILE') continue;
    for (const entry of entries) {
      const raw = currentAmount(entry.node, variant);
      if (raw !== null) {
        hasPositions = true;
        break;
      }
    }
    if (hasPositions) break;
  }
  if (!hasPositions && variant === 'jab4') warnings.push('JAb 4.0 filing without any position amount');

  const findAmount = (names: readonly string[]): Decimal | null => {
    for (const name of names) {
      const required = REQUIRED_PARENT[name];
      for (const entry of index.get(name) ?? []) {
        if (required !== undefined && entry.parent !== required) continue;
        const d = amountOf(name, entry);
        if (d) return d;
      }
    }
    return null;
  };

  const scaled = (d: Decimal): string => formatDecimal({ coef: d.coef, exp: d.exp + pow10 });

  const figures = emptyFigures();
  for (const def of KEY_FIGURES) {
    const names = format === 'jab4' ? def.jab4 : def.legacy;
    if (def.kind === 'count') {
      figures[figureJsonKey(def)] = headcount(index, names, warnings);
    } else {
      const d = findAmount(names);
      figures[figureJsonKey(def)] = d ? scaled(d) : null;
    }
  }

  // --- checks ----------------------------------------------------------------------------------------
  const aktiva = BILANZ_SUMME ? findAmount(BILANZ_SUMME[format]) : null;
  const passiva = findAmount([TOTAL_PASSIVA[format]]);
  if (aktiva && passiva && compareDecimal(aktiva, passiva) !== 0) {
    warnings.push(`BilanzSumme ${scaled(aktiva)} != total Passiva ${scaled(passiva)}`);
  }

  // --- P&L method ------------------------------------------------------------------------------------
  let pnlMethod: 'GKV' | 'UKV' | null = null;
  for (const [wrapper, method] of PNL_WRAPPERS[format]) {
    if (first(index, wrapper)) {
      pnlMethod = method;
      break;
    }
  }
  if (pnlMethod === null && format === 'legacy') {
    // No wrapper: infer from the codes that carry an amount (GKV `HGB_231_2_*`, UKV `HGB_231_3_*`).
    for (const [name, entries] of index) {
      if (!name.startsWith('HGB_231_')) continue;
      if (!entries.some((e) => currentAmount(e.node, variant) !== null)) continue;
      if (name.startsWith('HGB_231_2_')) pnlMethod = 'GKV';
      else if (name.startsWith('HGB_231_3_')) pnlMethod = 'UKV';
      if (pnlMethod) break;
    }
  }

  return {
    format,
    fnr,
    companyName,
    documentDate: fiscalYearEnd,
    fiscalYearStart,
    fiscalYearEnd,
    currency,
    unit,
    unitFactor: 10 ** pow10,
    sizeClass,
    pnlMethod,
    kind,
    hasPositions,
    figures,
    warnings,
  };
}

/** Average headcount (`<position>/ANZAHL`), as filed: never unit-scaled, may be fractional. */
function headcount(index: Map<string, IndexEntry[]>, names: readonly string[], warnings: string[]): string | null {
  for (const name of names) {
    for (const entry of index.get(name) ?? []) {
      const raw = childText(entry.node, 'ANZAHL');
      if (raw === null) continue;
      const value = canonicalDecimal(raw);
      if (value === null) {
        warnings.push(`unparseable headcount "${raw}" in ${name}`);
        continue;
      }
      return value;
    }
  }
  return null;
}
