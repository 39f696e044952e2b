// The bundled mapping of common GISA trade keys (Gewerbeschlüssel) to ÖNACE 2008 subclasses,
// pipeline/catalogues/data/trade_key_oenace.csv (its source and method in that folder's README).
// Its keys are those of the project's fixture catalogue; a catalogue with other keys still maps through
// the standard wording each row keeps (resolveTradeKeys).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { fold } from './text.js';

export const TRADE_KEY_FILE = fileURLToPath(new URL('../catalogues/data/trade_key_oenace.csv', import.meta.url));

export interface TradeKeyMapping {
  tradeKey: string;
  wording: string;
  /** Level-5 subclass. */
  code: string;
  /** How surely a holder of this licence works in that class (0..1). */
  weight: number;
}

export function loadTradeKeyMap(file = TRADE_KEY_FILE): Map<string, TradeKeyMapping> {
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const map = new Map<string, TradeKeyMapping>();
  rows.forEach((r, i) => {
    const weight = Number(r.confidence);
    if (!/^\d{1,6}$/.test(r.trade_key ?? '') || !/^[A-U] \d{2}\.\d{2}-\d$/.test(r.oenace_code ?? '') || !(weight > 0 && weight <= 1)) {
      throw new Error(`trade_key_oenace.csv row ${i + 2} is malformed: ${JSON.stringify(r)}`);
    }
    map.set(r.trade_key!, { tradeKey: r.trade_key!, wording: r.wording ?? '', code: r.oenace_code!, weight });
  });
  return map;
}

/** A wording as compared: folded (case, umlauts, accents), punctuation and spacing ignored. */
export function wordingKey(wording: string): string {
  return fold(wording).replace(/[^a-z0-9]+/g, ' ').trim();
}

export interface ResolvedTradeKeys {
  /** The keys to classify by: the mapping's own where a held key is known only by its wording. */
  keys: string[];
  /** Mapping key -> the key the company holds, where they differ (the evidence names the held one). */
  heldAs: Map<string, string>;
}

/**
 * A held key the mapping does not know maps through its catalogue wording: the row whose standard
 * wording is the same. Keys the mapping knows, and keys matching no wording, stay as they are.
 */
export function resolveTradeKeys(keys: string[], wordings: Record<string, string>, map: Map<string, TradeKeyMapping>, byWording: Map<string, TradeKeyMapping>): ResolvedTradeKeys {
  const heldAs = new Map<string, string>();
  const out = keys.map((key) => {
    if (map.has(key) || !wordings[key]) return key;
    const mapped = byWording.get(wordingKey(wordings[key]));
    if (!mapped) return key;
    if (!keys.includes(mapped.tradeKey) && !heldAs.has(mapped.tradeKey)) heldAs.set(mapped.tradeKey, key);
    return mapped.tradeKey;
  });
  return { keys: [...new Set(out)], heldAs };
}

/** The mapping's rows by their wording (the first row of a wording wins). */
export function mappingByWording(map: Map<string, TradeKeyMapping>): Map<string, TradeKeyMapping> {
  const out = new Map<string, TradeKeyMapping>();
  for (const m of map.values()) if (m.wording && !out.has(wordingKey(m.wording))) out.set(wordingKey(m.wording), m);
  return out;
}
