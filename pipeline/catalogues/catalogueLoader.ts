// Loads the bundled catalogue files (pipeline/catalogues/data, sources in its README) into the
// catalogue tables. Each table is replaced in one transaction only when its files changed since the
// last load, so running the loader twice writes nothing.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { Sql, TransactionSql } from '../../runtime/db.js';

export const CATALOGUE_DIR = fileURLToPath(new URL('./data/', import.meta.url));

type CsvRow = Record<string, string>;

async function readCsv(file: string): Promise<{ rows: CsvRow[]; text: string }> {
  const text = await readFile(CATALOGUE_DIR + file, 'utf8');
  const rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as CsvRow[];
  return { rows, text };
}

const blankToNull = (v: string | undefined): string | null => (v == null || v.trim() === '' ? null : v.trim());

interface CatalogueSpec {
  name: string;
  files: string[];
  load: (tx: TransactionSql, csv: Record<string, CsvRow[]>) => Promise<number>;
}

async function insertRows(tx: TransactionSql, table: string, rows: Record<string, unknown>[]): Promise<number> {
  // Chunked so no statement exceeds the 65535-parameter limit of the protocol.
  const chunk = 2000;
  for (let i = 0; i < rows.length; i += chunk) {
    await tx`INSERT INTO ${tx(table)} ${tx(rows.slice(i, i + chunk) as Record<string, string>[])}`;
  }
  return rows.length;
}

function oenaceRows(version: '2008' | '2025', rows: CsvRow[]) {
  return rows.map((r) => ({
    version,
    code: r.code!,
    level: Number(r.level),
    edv_code: r.edv_code!,
    section: r.section!,
    parent_code: blankToNull(r.parent_code),
    title_de: r.title_de!,
    short_title_de: blankToNull(r.short_title_de),
    title_en: blankToNull(r.title_en),
  }));
}

export const CATALOGUES: CatalogueSpec[] = [
  {
    name: 'oenace',
    files: ['oenace2008_bilingual.csv', 'oenace2025_bilingual.csv'],
    load: async (tx, csv) => {
      await tx`DELETE FROM oenace_class`;
      return insertRows(tx, 'oenace_class', [
        ...oenaceRows('2008', csv['oenace2008_bilingual.csv']!),
        ...oenaceRows('2025', csv['oenace2025_bilingual.csv']!),
      ]);
    },
  },
  {
    name: 'postal',
    files: ['at_postal_codes_geonames.csv'],
    load: async (tx, csv) => {
      await tx`DELETE FROM postal_locality`;
      return insertRows(
        tx,
        'postal_locality',
        csv['at_postal_codes_geonames.csv']!.map((r) => ({
          zip_code: r.zipcode!,
          place: r.place!,
          state: r.state!,
          state_code: String(Number(r.state_code)),
          district: blankToNull(r.province),
          district_code: blankToNull(r.province_code),
          municipality: blankToNull(r.community),
          municipality_code: blankToNull(r.community_code),
          latitude: blankToNull(r.latitude),
          longitude: blankToNull(r.longitude),
        })),
      );
    },
  },
  {
    name: 'courts',
    files: ['firmenbuch_courts.csv'],
    load: async (tx, csv) => {
      await tx`DELETE FROM court`;
      return insertRows(
        tx,
        'court',
        csv['firmenbuch_courts.csv']!.map((r) => ({ code: r.fb_court_code!, name: r.name!, state: r.bundesland!, iso_3166_2: r.iso_3166_2! })),
      );
    },
  },
  {
    name: 'legal-forms',
    files: ['firmenbuch_rechtsformen.csv', 'legal_form_suffixes.csv'],
    load: async (tx, csv) => {
      const suffixes = new Map<string, string[]>();
      for (const r of csv['legal_form_suffixes.csv']!) suffixes.set(r.code!, [...(suffixes.get(r.code!) ?? []), r.suffix!]);
      await tx`DELETE FROM legal_form`;
      return insertRows(
        tx,
        'legal_form',
        csv['firmenbuch_rechtsformen.csv']!.map((r) => ({
          code: r.fb_code!,
          name: r.name_de!,
          abbreviation: blankToNull(r.abbreviation),
          elf_code: blankToNull(r.elf_code),
          name_suffixes: suffixes.get(r.fb_code!) ?? [],
        })),
      );
    },
  },
  {
    name: 'function-codes',
    files: ['function_codes.csv', 'representation_kinds.csv'],
    load: async (tx, csv) => {
      // Codes the pipeline learned from extracts (source 'register') stay; shipped ones are refreshed.
      await tx`DELETE FROM function_code WHERE source = 'catalogue'`;
      await tx`DELETE FROM representation_kind WHERE source = 'catalogue'`;
      let n = 0;
      for (const r of csv['function_codes.csv']!) {
        await tx`
          INSERT INTO function_code (code, text, category, source)
          VALUES (${r.code!}, ${r.text!}, ${r.category!}, 'catalogue')
          ON CONFLICT (code) DO UPDATE SET text = EXCLUDED.text, category = EXCLUDED.category, source = 'catalogue'`;
        n++;
      }
      for (const r of csv['representation_kinds.csv']!) {
        await tx`
          INSERT INTO representation_kind (code, text, source) VALUES (${r.code!}, ${r.text!}, 'catalogue')
          ON CONFLICT (code) DO UPDATE SET text = EXCLUDED.text, source = 'catalogue'`;
        n++;
      }
      return n;
    },
  },
  {
    name: 'regulated-trades',
    files: ['gewo_94_reglementierte_gewerbe.csv'],
    load: async (tx, csv) => {
      await tx`DELETE FROM regulated_trade`;
      return insertRows(
        tx,
        'regulated_trade',
        csv['gewo_94_reglementierte_gewerbe.csv']!.map((r) => ({
          ziffer: Number(r.ziffer),
          name: blankToNull(r.bezeichnung),
          craft: blankToNull(r.handwerk),
          in_force: r.status === 'in Kraft',
          repealed_by: blankToNull(r.aufgehoben_durch),
          reliability_check: r.zuverlaessigkeitspruefung_95 === 'ja' ? true : r.zuverlaessigkeitspruefung_95 === 'nein' ? false : null,
        })),
      );
    },
  },
];

export interface CatalogueLoadResult {
  name: string;
  rows: number;
  reloaded: boolean;
}

/** Loads every catalogue whose files changed since the last load. */
export async function loadCatalogues(sql: Sql): Promise<CatalogueLoadResult[]> {
  const results: CatalogueLoadResult[] = [];
  for (const spec of CATALOGUES) {
    const csv: Record<string, CsvRow[]> = {};
    const hash = createHash('sha256');
    for (const file of spec.files) {
      const { rows, text } = await readCsv(file);
      csv[file] = rows;
      hash.update(file).update('\0').update(text);
    }
    const checksum = hash.digest('hex');
    const result = await sql.begin(async (tx) => {
      // Serialises concurrent loaders: the second one sees the first one's checksum and does nothing.
      await tx`SELECT pg_advisory_xact_lock(hashtext(${'catalogue:' + spec.name}))`;
      const [loaded] = await tx<{ checksum: string; rowCount: number }[]>`SELECT checksum, row_count FROM catalogue_load WHERE name = ${spec.name}`;
      if (loaded?.checksum === checksum) return { name: spec.name, rows: loaded.rowCount, reloaded: false };
      const rows = await spec.load(tx, csv);
      await tx`
        INSERT INTO catalogue_load (name, checksum, row_count) VALUES (${spec.name}, ${checksum}, ${rows})
        ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, row_count = EXCLUDED.row_count, loaded_at = now()`;
      return { name: spec.name, rows, reloaded: true };
    });
    results.push(result);
  }
  return results;
}
