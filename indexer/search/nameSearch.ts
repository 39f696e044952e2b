// Name lookup over the read model: autocomplete (GET /businesses/names) and batch resolution
// (POST /businesses/resolve-names). Ranking: exact > prefix > word prefix > former name > fuzzy,
// active before deleted. Umlaut spellings are folded by search_norm (ä = ae) and legal-form suffixes
// ("GmbH", "Ges.m.b.H.", "AG" ...) are stripped from both sides before comparing the core name.
//
// The prefix band uses the text_pattern_ops btree for its ORDER BY as well (`USING ~<~`), which keeps a
// keystroke query sub-millisecond; the fuzzy band (trigram similarity) only runs when the cheaper bands
// found nothing.
import type { Sql } from '../../runtime/db.js';
import { normaliseForSearch } from './postgresScreenerQuery.js';

/** Legal-form suffixes as they look after normalisation, longest first. */
const LEGAL_FORM_SUFFIXES = [
  'gesellschaft mit beschraenkter haftung', 'gesellschaft m b h', 'ges m b h', 'gesmbh', 'ges mbh', 'g m b h', 'gmbh',
  'gmbh co kg', 'gmbh co', 'aktiengesellschaft', 'kommanditgesellschaft', 'offene gesellschaft', 'ag', 'kg', 'og', 'oeg',
  'keg', 'ohg', 'e u', 'eu', 'egen', 'reg gen m b h', 'privatstiftung', 'se', 'vvag',
].sort((a, b) => b.length - a.length);

/** The normalised name without a trailing legal-form suffix ("mueller bau gmbh" -> "mueller bau"). */
export function coreName(normalised: string): string {
  let core = normalised;
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of LEGAL_FORM_SUFFIXES) {
      if (core.endsWith(` ${suffix}`)) {
        core = core.slice(0, -suffix.length - 1).trim();
        changed = true;
        break;
      }
    }
  }
  return core;
}

export type MatchBand = 'exact' | 'prefix' | 'word' | 'former' | 'fuzzy';
const BAND_RANK: Record<MatchBand, number> = { exact: 0, prefix: 1, word: 2, former: 3, fuzzy: 4 };

export interface NameHit {
  fnr: string;
  name: string;
  city: string | null;
  isActive: boolean;
  band: MatchBand;
  /** 0..1: 1 for an exact core match, trigram similarity of the normalised names otherwise. */
  score: number;
}

/** Escapes LIKE's own characters. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface RawHit {
  fnr: string;
  name: string;
  city: string | null;
  isActive: boolean;
  band: MatchBand;
  score: number;
}

/**
 * Candidates for one search term, best first, at most `limit`. The caller pages over them; autocomplete
 * needs no more than a few pages.
 */
export async function findNames(sql: Sql, term: string, limit: number): Promise<NameHit[]> {
  const norm = normaliseForSearch(term);
  if (norm === '') return [];
  const core = coreName(norm) || norm;
  const prefix = `${likeEscape(core)}%`;
  const wordPrefix = `% ${likeEscape(core)}%`;
  const hits: RawHit[] = [];
  const seen = new Set<string>();
  const add = (rows: RawHit[]) => {
    for (const r of rows) {
      if (seen.has(r.fnr)) continue;
      seen.add(r.fnr);
      hits.push(r);
    }
  };

  add(await sql<RawHit[]>`
    SELECT fnr, name, city, is_active, 'exact' AS band, 1.0::float8 AS score FROM company_search
     WHERE name_norm LIKE ${prefix} AND (name_norm = ${norm} OR name_norm = ${core} OR name_norm ~ ${`^${core.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (${LEGAL_FORM_SUFFIXES.join('|')})$`})
     ORDER BY is_active DESC, name_norm USING ~<~, fnr LIMIT ${limit}`);
  if (hits.length < limit) {
    add(await sql<RawHit[]>`
      SELECT fnr, name, city, is_active, 'prefix' AS band, similarity(name_norm, ${core})::float8 AS score FROM company_search
       WHERE name_norm LIKE ${prefix}
       ORDER BY name_norm USING ~<~ LIMIT ${limit * 2}`);
  }
  if (hits.length < limit && core.length >= 3) {
    add(await sql<RawHit[]>`
      SELECT fnr, name, city, is_active, 'word' AS band, similarity(name_norm, ${core})::float8 AS score FROM company_search
       WHERE all_names_norm LIKE ${wordPrefix} AND name_norm LIKE ${wordPrefix}
       LIMIT ${limit * 2}`);
  }
  if (hits.length < limit) {
    add(await sql<RawHit[]>`
      SELECT fnr, name, city, is_active, 'former' AS band, similarity(all_names_norm, ${core})::float8 AS score FROM company_search
       WHERE all_names_norm LIKE ${`%${likeEscape(core)}%`}
         AND EXISTS (SELECT 1 FROM unnest(former_names_norm) f WHERE f LIKE ${prefix} OR f LIKE ${wordPrefix})
       LIMIT ${limit * 2}`);
  }
  if (hits.length === 0 && core.length >= 3) {
    add(await sql<RawHit[]>`
      SELECT fnr, name, city, is_active, 'fuzzy' AS band, similarity(name_norm, ${core})::float8 AS score FROM company_search
       WHERE name_norm % ${core}
       ORDER BY similarity(name_norm, ${core}) DESC, fnr LIMIT ${limit}`);
  }
  return hits
    .sort((a, b) => BAND_RANK[a.band] - BAND_RANK[b.band] || Number(b.isActive) - Number(a.isActive) || b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}

export type ResolveBand = 'exact' | 'probable' | 'review' | 'none';

/** Match band of a resolve-names answer from the best candidate's band and score. */
export function resolveBand(hit: NameHit | undefined): ResolveBand {
  if (!hit) return 'none';
  if (hit.band === 'exact') return 'exact';
  if (hit.score >= 0.8) return 'probable';
  if (hit.score >= 0.5) return 'review';
  return 'none';
}
