// The bundled mapping of common GISA trade keys (Gewerbeschlüssel) to ÖNACE 2008 subclasses,
// pipeline/catalogues/data/trade_key_oenace.csv (its source and method in that folder's README).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

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
