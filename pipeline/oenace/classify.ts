// The ÖNACE classifier: business-purpose text and trade keys in, ÖNACE 2008 subclasses out, each with
// a confidence and its evidence. Pure and deterministic (the lexicon and catalogues are read once, at
// construction). docs/oenace.md describes the method, the threshold and the measured accuracy.
import { calibratedConfidence, loadCalibration, type AssignmentFeatures, type CalibrationTable, type EvidenceKind } from './calibration.js';
import { CatalogueIndex } from './catalogueIndex.js';
import { FAMILY, PRECEDENCE, loadLexicon, type DomainDef, type Lexicon, type Mode, type Term } from './lexicon.js';
import { Speller, findTerm, matchPattern, type Hit } from './matching.js';
import { PhraseScanner } from './scanner.js';
import { TextNormaliser, type Clause } from './text.js';
import { loadTradeKeyMap, type TradeKeyMapping } from './tradeKeys.js';

export interface OenaceInput {
  /** The register's business purpose (Geschäftszweig); null when it gives none. */
  purposeText: string | null;
  /** GISA trade keys of the company's current licences. */
  tradeKeys: string[];
}

export interface OenaceEvidence {
  /** Words of the purpose text that led to the code, as written. */
  words: string[];
  /** Trade keys whose mapping names the code (or its class). */
  tradeKeys: string[];
}

export interface ExplainedAssignment extends OenaceAssignment {
  features: AssignmentFeatures;
}

export interface OenaceAssignment {
  /** Level-5 subclass, 'C 10.71-1'. */
  code: string;
  isPrimary: boolean;
  /** 0..1, calibrated on the evaluation set (docs/oenace.md). */
  confidence: number;
  evidence: OenaceEvidence;
}

/** At most this many codes per company: the rest of a long list of activities is noise for search. */
const MAX_ASSIGNMENTS = 4;

/** A code from one place in the text. */
interface Candidate {
  code: string;
  weight: number;
  /** Clause index * 1000 + offset: earlier named activities come first. */
  order: number;
  /** Ranges in this clause the candidate explains (for preferring the most specific reading). */
  ranges: Hit[];
  /** Candidates of one origin (one domain word read in several modes) are kept or dropped together. */
  origin: string;
  words: string[];
  /** Read through a mode of an earlier clause, a corrected spelling or the catalogue titles. */
  indirect: boolean;
  /** What kind of reading gave it: the calibration table is keyed by it (calibration.ts). */
  kind: EvidenceKind;
}

interface ModeHit extends Hit {
  mode: Mode;
  clause: number;
  words: string[];
}

function wordsAt(clause: Clause, hits: Hit[]): string[] {
  const out: string[] = [];
  for (const t of clause.tokens) {
    const end = t.at + t.norm.length;
    if (hits.some((h) => h.at < end && t.at < h.at + h.len) && !out.includes(t.orig)) out.push(t.orig);
  }
  return out;
}

export class OenaceClassifier {
  private readonly normaliser: TextNormaliser;
  private readonly speller: Speller;
  private readonly catalogue: CatalogueIndex;
  /** Generic code per mode, when a mode is named with nothing the lexicon knows ("Handel mit ..."). */
  private readonly generic: Map<Mode, { code: string; weight: number }>;
  private readonly scanner = new PhraseScanner();
  /** Phrase id -> the modes, domains and activities whose (first) term holds it: only those are tried. */
  private readonly modesByPhrase = new Map<number, number[]>();
  private readonly domainsByPhrase = new Map<number, number[]>();
  private readonly activitiesByPhrase = new Map<number, number[]>();

  constructor(
    private readonly lexicon: Lexicon = loadLexicon(),
    private readonly tradeKeys: Map<string, TradeKeyMapping> = loadTradeKeyMap(),
    private readonly calibration: CalibrationTable = loadCalibration(),
  ) {
    this.normaliser = new TextNormaliser(lexicon.vocabulary);
    const lexiconWords = new Set<string>();
    for (const d of lexicon.domains) for (const a of d.term) lexiconWords.add(a.text);
    for (const m of lexicon.modes) for (const a of m.term) lexiconWords.add(a.text);
    for (const act of lexicon.activities) for (const t of act.pattern.all) for (const a of t) lexiconWords.add(a.text);
    this.speller = new Speller(lexiconWords);
    this.catalogue = new CatalogueIndex(lexicon.subclasses.values());
    this.generic = new Map(lexicon.generic.map((g) => [g.mode, { code: g.code, weight: g.weight }]));
    const register = (term: Term, index?: Map<number, number[]>, owner?: number) => {
      for (const a of term) {
        a.id = this.scanner.register(a.text);
        if (index && owner !== undefined) index.set(a.id, [...(index.get(a.id) ?? []), owner]);
      }
    };
    lexicon.modes.forEach((m, i) => register(m.term, this.modesByPhrase, i));
    lexicon.domains.forEach((d, i) => {
      register(d.term, this.domainsByPhrase, i);
      for (const t of d.exclude) register(t);
    });
    lexicon.activities.forEach((act, i) => {
      act.pattern.all.forEach((t, k) => register(t, k === 0 ? this.activitiesByPhrase : undefined, i));
      for (const t of act.pattern.none) register(t);
    });
    this.scanner.build();
  }

  classify(input: OenaceInput): OenaceAssignment[] {
    return this.explain(input).map(({ features: _features, ...assignment }) => assignment);
  }

  /** The assignments with what their confidence was read from (for fitting the calibration). */
  explain(input: OenaceInput): ExplainedAssignment[] {
    const fromText = input.purposeText ? this.readText(input.purposeText) : [];
    return this.combine(fromText, input.tradeKeys);
  }

  /** Candidates from the text, clause by clause. */
  private readText(text: string): Candidate[] {
    const clauses = this.normaliser.clauses(text);
    const out: Candidate[] = [];
    let carried: ModeHit[] = [];
    let sticky: ModeHit[] = [];
    let last: { clause: number; domains: Array<{ domain: DomainDef; hit: Hit }> } | null = null;
    const consumed = new Set<ModeHit>();

    clauses.forEach((original, i) => {
      let clause = original;
      let read = this.readClause(clause, i);
      let fuzzy = false;
      if (read.activities.length === 0 && read.domains.length === 0) {
        const corrected = this.correctClause(clause);
        if (corrected) {
          clause = corrected;
          read = this.readClause(clause, i);
          fuzzy = true;
        }
      }
      const candidates: Candidate[] = [...read.activities];
      if (read.domains.length > 0) {
        let context = [...read.modes, ...carried];
        let inherited = false;
        if (context.length === 0) {
          context = sticky;
          inherited = true;
        }
        for (const d of read.domains) candidates.push(...this.resolveDomain(d.domain, d.hit, context, clause, i, inherited, consumed));
        if (!inherited) sticky = context;
        carried = [];
        last = { clause: i, domains: read.domains };
      } else if (read.activities.length === 0) {
        const fallback = this.fromCatalogue(clause, i, read.modes);
        if (fallback) candidates.push(fallback);
        else carried.push(...read.modes);
      }
      if (read.activities.length > 0) {
        sticky = [];
        for (const m of read.modes) consumed.add(m); // the activity's own verbs ("Vermietung von Ferienwohnungen")
      }
      if (fuzzy) for (const c of candidates) c.indirect = true;
      out.push(...withoutField(selectMostSpecific(candidates), clause));
    });

    // Verbs left at the end refer back to the last things named ("..., Verkauf in eigenen Filialen").
    const lastSeen = last as { clause: number; domains: Array<{ domain: DomainDef; hit: Hit }> } | null;
    if (carried.length > 0 && lastSeen) {
      for (const d of lastSeen.domains) {
        const own = this.resolveDomain(d.domain, d.hit, carried, clauses[lastSeen.clause]!, lastSeen.clause, false, consumed);
        out.push(...own.filter((c) => !out.some((o) => o.code === c.code)).map((c) => ({ ...c, indirect: true })));
      }
    }
    // Modes nothing else explained: their generic code ("Handel" alone is G 46.90), one per family
    // ("Onlinehandel" is online trade, not also wholesale).
    const families = new Set<string>();
    for (const m of [...carried].sort((a, b) => rank(a.mode) - rank(b.mode))) {
      const g = this.generic.get(m.mode);
      if (g && !consumed.has(m) && !families.has(FAMILY[m.mode])) {
        families.add(FAMILY[m.mode]);
        out.push({
          code: g.code, weight: g.weight, order: m.clause * 1000 + m.at, ranges: [], origin: `mode:${m.clause}`, words: m.words, indirect: false,
          kind: 'verb',
        });
      }
    }
    return out;
  }

  /** A clause the lexicon does not know, read against the catalogue titles (low confidence by design). */
  private fromCatalogue(clause: Clause, index: number, modes: Hit[]): Candidate | null {
    // The verbs are the lexicon's ("Entwicklung" alone is a verb waiting for its object, not research).
    const words = clause.tokens.filter((t) => !modes.some((m) => m.at < t.at + t.norm.length && t.at < m.at + m.len)).map((t) => t.norm);
    const found = this.catalogue.best(words);
    if (!found || found.score < 4) return null;
    return {
      code: found.code, weight: Math.min(0.5, found.score / 20), order: index * 1000, ranges: [], origin: `catalogue:${index}`,
      words: clause.tokens.filter((t) => found.words.includes(t.norm)).map((t) => t.orig), indirect: true, kind: 'catalogue',
    };
  }

  private readClause(clause: Clause, index: number) {
    const scan = this.scanner.scan(clause.text);
    const tried = (byPhrase: Map<number, number[]>) => {
      const owners = new Set<number>();
      for (const id of scan.positions.keys()) for (const o of byPhrase.get(id) ?? []) owners.add(o);
      return [...owners].sort((a, b) => a - b);
    };
    const modes: ModeHit[] = [];
    for (const k of tried(this.modesByPhrase)) {
      const def = this.lexicon.modes[k]!;
      const hit = findTerm(scan, def.term);
      if (!hit) continue;
      const same = modes.find((m) => m.mode === def.mode);
      if (same && same.len >= hit.len) continue;
      const entry = { ...hit, mode: def.mode, clause: index, words: wordsAt(clause, [hit]) };
      if (same) modes[modes.indexOf(same)] = entry;
      else modes.push(entry);
    }
    const activities: Candidate[] = [];
    for (const k of tried(this.activitiesByPhrase)) {
      const act = this.lexicon.activities[k]!;
      const hits = matchPattern(scan, act.pattern);
      if (!hits) continue;
      activities.push({
        code: act.code, weight: act.weight, order: index * 1000 + Math.min(...hits.map((h) => h.at)), ranges: hits,
        origin: `activity:${k}`, words: wordsAt(clause, hits), indirect: false, kind: 'phrase',
      });
    }
    const domains: Array<{ domain: DomainDef; hit: Hit }> = [];
    for (const k of tried(this.domainsByPhrase)) {
      const domain = this.lexicon.domains[k]!;
      const hit = findTerm(scan, domain.term);
      if (hit && !domain.exclude.some((t) => findTerm(scan, t))) domains.push({ domain, hit });
    }
    return { modes, activities, domains };
  }

  /** The clause with misspelt words corrected, or null when nothing changed. */
  private correctClause(clause: Clause): Clause | null {
    const scan = this.scanner.scan(clause.text);
    let changed = false;
    const tokens = clause.tokens.map((t) => {
      // A word mostly made of lexicon phrases is spelt right ("handel"), however close another is ("handy").
      let known = 0;
      for (const [id, starts] of scan.positions) {
        const len = this.scanner.lengthOf(id);
        if (len > known && starts.some((at) => at >= t.at && at + len <= t.at + t.norm.length)) known = len;
      }
      if (known >= 0.6 * t.norm.length) return { ...t };
      const fixed = this.speller.correct(t.norm);
      if (!fixed) return { ...t };
      changed = true;
      return { ...t, norm: fixed };
    });
    if (!changed) return null;
    let text = ' ';
    for (const t of tokens) {
      t.at = text.length;
      text += `${t.norm} `;
    }
    return { text, tokens };
  }

  /** The codes a domain word gives in the modes around it. */
  private resolveDomain(
    domain: DomainDef, hit: Hit, context: ModeHit[], clause: Clause, index: number, inherited: boolean, consumed: Set<ModeHit>,
  ): Candidate[] {
    const present = new Map<Mode, ModeHit>();
    for (const m of context) if (!present.has(m.mode)) present.set(m.mode, m);
    const out: Candidate[] = [];
    const make = (code: string, weight: number, used: ModeHit[], kind: EvidenceKind): Candidate => {
      for (const m of used) consumed.add(m);
      const own = used.filter((m) => m.clause === index && !inherited);
      // Within a clause the thing named orders the readings ("Betrieb eines Netzes für Energie": the net
      // before the energy); a verb from an earlier clause keeps its place ("Herstellung und Vertrieb").
      const order = Math.min(index * 1000 + hit.at, ...used.filter((m) => !inherited && m.clause !== index).map((m) => m.clause * 1000 + m.at));
      return {
        code, weight, order, ranges: [hit, ...own], origin: `domain:${domain.name}:${index}:${hit.at}`,
        // Evidence in text order: verbs of earlier clauses, then this clause's words.
        words: [...new Set([...(inherited ? [] : used.filter((m) => m.clause !== index).flatMap((m) => m.words)), ...wordsAt(clause, [hit, ...own])])],
        indirect: inherited || used.some((m) => m.clause !== index), kind,
      };
    };
    if (present.size > 0) {
      if (domain.multi) {
        const families = new Set<string>();
        // Modes by precedence within their family: retail before trade when both are named.
        const modes = [...present.keys()].sort((a, b) => rank(a) - rank(b));
        for (const named of modes) {
          const family = FAMILY[named];
          const trade = present.get(named)!;
          // "Buchhandel" (one word) is the book shop; "Handel mit Büchern" and "Buchgroßhandel" stay wholesale.
          const compound = trade.clause === index && trade.at === hit.at + hit.len && clause.text.startsWith('handel', trade.at);
          const mode = named === 'trade' && domain.shop && compound ? 'retail' : named;
          if (families.has(family)) continue;
          const has = (m: Mode) => m === mode || present.has(m);
          const key = domain.keys.find((k) => k.modes.includes(mode) && k.modes.every(has)) ?? fallbackKey(domain, mode);
          if (!key) continue;
          families.add(family);
          out.push(make(key.code, key.weight, key.modes.map((m) => present.get(m) ?? trade), 'domainVerb'));
        }
      } else {
        const key = domain.keys.find((k) => k.modes.length > 0 && k.modes.every((m) => present.has(m)));
        if (key) out.push(make(key.code, key.weight, key.modes.map((m) => present.get(m)!), 'domainVerb'));
      }
    }
    if (out.length === 0) {
      const fallback = domain.keys.find((k) => k.modes.length === 0);
      // Named with verbs this domain has no code for: its default, trusted a little less.
      if (fallback) {
        out.push(make(fallback.code, present.size > 0 ? fallback.weight * 0.85 : fallback.weight, [], present.size > 0 ? 'domainOtherVerb' : 'domainDefault'));
      }
    }
    return out;
  }

  /** Text candidates and trade keys to the company's assignments. */
  private combine(candidates: Candidate[], tradeKeys: string[]): ExplainedAssignment[] {
    const byCode = new Map<string, Entry>();
    for (const c of candidates) {
      const e = byCode.get(c.code);
      if (!e) {
        byCode.set(c.code, { weight: c.weight, order: c.order, words: new Set(c.words), tradeKeys: [], indirect: c.indirect, kind: c.kind });
        continue;
      }
      if (c.weight > e.weight || (c.weight === e.weight && !c.indirect)) {
        e.weight = c.weight;
        e.indirect = c.indirect;
        e.kind = c.kind;
      }
      e.order = Math.min(e.order, c.order);
      for (const w of c.words) e.words.add(w);
    }
    const textCodes = [...byCode.keys()];
    for (const key of [...new Set(tradeKeys)].sort()) {
      const mapped = this.tradeKeys.get(key);
      if (!mapped) continue;
      // A trade key confirms a text code of the same class; otherwise it adds its own code.
      const target = textCodes.find((c) => c.slice(0, 7) === mapped.code.slice(0, 7)) ?? mapped.code;
      const e = byCode.get(target);
      if (e) e.tradeKeys.push(mapped);
      else byCode.set(target, { weight: mapped.weight, order: 1e9, words: new Set(), tradeKeys: [mapped], indirect: false, kind: 'tradeKey' });
    }
    if (byCode.size === 0) return [];

    const entries = [...byCode.entries()];
    const max = Math.max(...entries.map(([, e]) => e.weight));
    const strong = entries.filter(([, e]) => e.weight >= 0.75 * max);
    // Primary: the first named activity among the strong ones (register texts lead with the main business).
    const primary = strong.sort(([ca, a], [cb, b]) => a.order - b.order || b.weight - a.weight || (ca < cb ? -1 : 1))[0]![0];
    const ranked = entries.sort(([ca, a], [cb, b]) =>
      Number(cb === primary) - Number(ca === primary) || a.order - b.order || b.weight - a.weight || (ca < cb ? -1 : 1));
    const kept = ranked.slice(0, MAX_ASSIGNMENTS);
    return kept.map(([code, e]) => {
      const features: AssignmentFeatures = {
        kind: e.kind, weight: e.weight, isPrimary: code === primary, indirect: e.indirect, assignments: kept.length,
      };
      return {
        code,
        isPrimary: code === primary,
        confidence: this.confidence(features, e.tradeKeys),
        evidence: { words: [...e.words], tradeKeys: e.tradeKeys.map((t) => t.tradeKey) },
        features,
      };
    });
  }

  /**
   * The calibrated share right for the reading (the table fitted by npm run oenace:calibrate); each
   * licence naming the same class removes part of the remaining doubt. A code from licences alone has
   * no labelled data to fit: it keeps the mapping's own confidence.
   */
  private confidence(f: AssignmentFeatures, tradeKeys: TradeKeyMapping[]): number {
    let c = f.kind === 'tradeKey' ? f.weight : calibratedConfidence(this.calibration, f);
    for (const m of f.kind === 'tradeKey' ? tradeKeys.slice(1) : tradeKeys) c = 1 - (1 - c) * (1 - m.weight * 0.6);
    return Math.round(Math.min(0.99, c) * 100) / 100;
  }
}

interface Entry {
  weight: number;
  order: number;
  words: Set<string>;
  tradeKeys: TradeKeyMapping[];
  indirect: boolean;
  kind: EvidenceKind;
}

/** Candidates below this weight are vague ("Beratung", "Dienstleistungen"): dropped beside a precise one. */
const VAGUE = 0.75;

function overlaps(a: Hit[], b: Hit[]): boolean {
  return a.some((x) => b.some((y) => x.at < y.at + y.len && y.at < x.at + x.len));
}

function coveredLength(ranges: Hit[]): number {
  const covered = new Set<number>();
  for (const r of ranges) for (let p = r.at; p < r.at + r.len; p++) covered.add(p);
  return covered.size;
}

/**
 * The most specific readings of one clause. Candidates of one origin (a domain word read in several
 * modes) stay together. Readings that share words compete and the one explaining more text wins
 * ("einzelhandel mit lebensmitteln" is retail food, not also wholesale food through "handel");
 * readings of different words coexist ("Hotel mit Restaurant"), except vague ones beside precise ones.
 */
function selectMostSpecific(candidates: Candidate[]): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const g = groups.get(c.origin);
    if (g) g.push(c);
    else groups.set(c.origin, [c]);
  }
  const ordered = [...groups.values()]
    .map((g) => ({ g, ranges: g.flatMap((c) => c.ranges), weight: Math.max(...g.map((c) => c.weight)) }))
    .sort((a, b) => coveredLength(b.ranges) - coveredLength(a.ranges) || b.weight - a.weight);
  const precise = ordered.some((o) => o.weight >= VAGUE);
  const kept: Candidate[] = [];
  const taken: Hit[] = [];
  for (const { g, ranges, weight } of ordered) {
    if (overlaps(ranges, taken) || (precise && weight < VAGUE)) continue;
    kept.push(...g);
    taken.push(...ranges);
  }
  return kept;
}

/** Words after which a clause names the field of the activity before them ("Ingenieurbüro für Maschinenbau"). */
const FIELD_MARKERS = new Set(['fuer', 'bereich', 'gebiet', 'schwerpunkt', 'branche', 'fachgebiet']);

/**
 * Drops readings that only name the field of an earlier activity in another division: an engineering
 * office for mechanical engineering builds no machines. A field in the same division refines instead
 * ("Gruppenpraxis für Innere Medizin").
 */
function withoutField(candidates: Candidate[], clause: Clause): Candidate[] {
  const marker = clause.tokens.find((t) => FIELD_MARKERS.has(t.norm));
  if (!marker) return candidates;
  const before = candidates.filter((c) => c.weight >= VAGUE && c.ranges.some((r) => r.at < marker.at));
  if (before.length === 0) return candidates;
  return candidates.filter((c) => c.ranges.length === 0 || c.ranges.some((r) => r.at < marker.at)
    || before.some((b) => b.code.slice(0, 4) === c.code.slice(0, 4)));
}

function rank(mode: Mode): number {
  const i = PRECEDENCE.indexOf(mode);
  return i < 0 ? PRECEDENCE.length : i;
}

/** A mode the domain names no code for: the next more general one ("Verkauf" -> retail -> trade). */
function fallbackKey(domain: DomainDef, mode: Mode) {
  const chain: Partial<Record<Mode, Mode[]>> = { sell: ['retail', 'trade'], online: [], agency: ['trade'], retail: ['trade'] };
  for (const m of chain[mode] ?? []) {
    const key = domain.keys.find((k) => k.modes.length === 1 && k.modes[0] === m);
    if (key) return mode === 'agency' ? { ...key, weight: key.weight * 0.8 } : key;
  }
  // Online or mail order of goods is its own class, whatever the goods.
  if (mode === 'online' && domain.keys.some((k) => k.modes[0] === 'trade')) return { modes: ['online' as Mode], code: 'G 47.91-0', weight: 0.9 };
  return undefined;
}
