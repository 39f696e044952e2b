// Parses what the Ediktsdatei's IWG interface (IBM Domino Access Services, JSON) answers: one edict
// document (`documents/unid/{unid}?multipart=false`), a page of a view (`collections/name/{view}`) and
// its Content-Range total. Pure functions; an answer that arrived whole but cannot be read throws
// IwgContentError (unrecoverable: a retry gets the same answer). Quirks handled, each with a fixture:
// Domino's `\/` escapes, items that are scalars or arrays, `_Akt_` fields absent when `_Ori_` still
// holds, dates as `yyyy-mm-dd`, ISO instants (local midnight as 23:00Z) or `dd.mm.yyyy`, company names
// split arbitrarily across Vorname and Name, and the Bausteine rich text (blocks separated by
// `<br />\r\n`, fields by `~`, line breaks inside a block as `&lt;br&gt;`, HTML entities).
import { decodeHTML } from 'entities';
import type { NoticeBlock, NoticeDebtor, ParsedNotice, ViewEntry, ViewPage } from '../../schemas/courtNoticeRecords.js';
import { canonicalFnr, personId, registerDate } from '../../schemas/identifiers.js';
import { UnrecoverableInputError } from '../jobs/errors.js';

/**
 * An answer of the interface that arrived whole but cannot be read. Its raw input, kept on the failed
 * job in Redis, is redacted (redactIwgInput): the IWG terms require a deleted edict to be erased, and a
 * failed job is not erased with it.
 */
export class IwgContentError extends UnrecoverableInputError {
  constructor(message: string, rawInput?: string, options?: { cause?: unknown }) {
    super(message, rawInput === undefined ? undefined : redactIwgInput(rawInput), options);
  }
}

// Fields of an edict, a view entry or a deletion that carry no personal data: kept as given.
const PUBLIC_FIELDS = new Set([
  '@unid', '@noteid', '@form', '@modified', '@created', '@href', '@link', 'rel', 'href', '@entryid', '@position', '@siblings', '@score',
  '@title', '@folder', '@private', '@authors', 'AZKey', 'Aktenzeichen', 'AZ', 'GA', 'GZ', 'Jahr', 'PZ', 'EN', 'Gericht', 'Gericht_Code',
  'Gerichtshofsprengel_Code', 'Bundesland', 'Bundesland_Code', 'Verfahrenskurztext', 'Verfahrenstext', 'Schuldner_Akt_Type',
  'Schuldner_Ori_Type', 'type', 'contentType', 'Dat_Loeschung',
]);
const isPublic = (key: string) => PUBLIC_FIELDS.has(key) || (key.startsWith('Dat_') && !key.includes('Geburt'));

/** Letters become `x`, digits `9`: the shape of a text (its length, punctuation, escapes) without its words. */
const maskText = (text: string) => text.replace(/\p{L}/gu, 'x').replace(/\p{N}/gu, '9');

function redactValue(value: unknown, key: string | null): unknown {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, k)]));
  if (typeof value === 'string' && !(key !== null && isPublic(key))) return maskText(value);
  return value;
}

/**
 * An answer of the interface without its personal data, for a failed job's input: JSON keeps its
 * structure, keys and the fields of PUBLIC_FIELDS (AZKey, court, proceeding, publication dates), every
 * other string masked (names, addresses, birth dates, Bausteine); text that is not JSON is masked whole.
 */
export function redactIwgInput(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), null));
  } catch {
    return maskText(text);
  }
}

/**
 * Block names (Abschnitte) after which a proceeding is over: its cancellation (Aufhebung), its
 * discontinuation (Einstellung), the refusal to open it (Nichteröffnung, e.g. mangels Kostendeckung) and
 * the end of a debt-discharge proceeding (Beendigung des Abschöpfungsverfahrens, § 213 IO). The
 * interface notes (docs/contract/upstream-interfaces.md §4.2) list Aufhebung and Einstellung among their
 * ~55 names; the others are the Insolvenzordnung's. Matched on the name's first word, so `Aufhebung des
 * Konkurses` counts and `Aufhebungsantrag` does not. Kostendeckung, Schlussverteilung, Sanierungsplan,
 * Zahlungsplan and Abschöpfungsverfahren (its start: the debtor's proceeding goes on) do not close.
 */
export const CLOSING_BLOCKS = ['Aufhebung', 'Einstellung', 'Nichteröffnung', 'Beendigung'] as const;

/**
 * Block names that close a proceeding only when they are about the application to open it (its
 * rejection, dismissal or withdrawal): `Abweisung des Antrags auf Eröffnung`, not the rejection of a
 * restructuring plan, after which the proceeding goes on.
 */
export const OPENING_REFUSALS = ['Abweisung', 'Zurückweisung', 'Zurückziehung'] as const;
const OPENING_APPLICATION = /er(?:ö|oe)ffnungsantrag|antrag auf (?:die )?er(?:ö|oe)ffnung|konkursantrag|insolvenzantrag|nicht er(?:ö|oe)ffnet/i;

type Doc = Record<string, unknown>;

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    // V8 quotes a piece of the input in its message: left out (it may be a debtor's name).
    const reason = (err as Error).message.replace(/, ".*" is not valid JSON$/s, ' (input not shown): not valid JSON');
    throw new IwgContentError(`${what} is not JSON: ${reason}`, text);
  }
}

/** An item's values: Domino writes one value as a scalar and several as an array. */
function values(doc: Doc, field: string): string[] {
  const v = doc[field];
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list
    .filter((x) => typeof x === 'string' || typeof x === 'number')
    .map((x) => String(x).replace(/\s+/g, ' ').trim())
    .filter((x) => x !== '');
}

function text(doc: Doc, field: string): string | null {
  return values(doc, field)[0] ?? null;
}

/** `_Akt_` (latest) when present, else `_Ori_` (first publication), which stays current until changed. */
function current(doc: Doc, stem: string, field: string): string | null {
  return text(doc, `${stem}_Akt_${field}`) ?? text(doc, `${stem}_Ori_${field}`);
}

const VIENNA_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vienna', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * A date as `yyyy-mm-dd`. An instant with a zone (`2025-03-02T23:00:00Z`) is a Domino date-time item
 * holding local midnight: its date is the one in Vienna, not the UTC one.
 */
export function iwgDate(raw: string | null): string | null {
  if (raw === null) return null;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(raw)) {
    const at = new Date(raw);
    return Number.isNaN(at.getTime()) ? null : VIENNA_DATE.format(at);
  }
  return registerDate(raw);
}

function dates(doc: Doc, field: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const raw of values(doc, field)) {
    const d = iwgDate(raw);
    if (d) out.push(d);
    else warnings.push(`date-unreadable:${field}`);
  }
  return out;
}

const min = (xs: string[]) => (xs.length === 0 ? null : xs.reduce((a, b) => (a < b ? a : b)));
const max = (xs: string[]) => (xs.length === 0 ? null : xs.reduce((a, b) => (a > b ? a : b)));

/** The rich text of an item in any of the shapes DAS writes it: richtext object, multipart parts, or a string. */
function richText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return null;
  const v = value as { type?: unknown; data?: unknown; content?: unknown };
  if (typeof v.data === 'string') return v.data;
  if (Array.isArray(v.content)) {
    const parts = v.content as Array<{ contentType?: string; data?: string; contentTransferEncoding?: string }>;
    const part = parts.find((p) => p.contentType?.startsWith('text/html')) ?? parts.find((p) => typeof p.data === 'string');
    if (!part || typeof part.data !== 'string') return null;
    return part.contentTransferEncoding === 'base64' ? Buffer.from(part.data, 'base64').toString('utf8') : part.data;
  }
  return null;
}

/** Text of a block field: markup dropped, `&lt;br&gt;` as a line break, entities decoded, spaces tidied per line. */
function blockText(raw: string): string | null {
  const decoded = decodeHTML(raw.replace(/<[^>]*>/g, '').replace(/&lt;br\s*\/?&gt;/gi, '\n'));
  const lines = decoded.replace(/\r/g, '').replace(/\u00a0/g, ' ').split('\n').map((l) => l.replace(/[ \t]+/g, ' ').trim());
  const joined = lines.join('\n').replace(/^\n+|\n+$/g, '');
  return joined === '' ? null : joined;
}

const DATE_FIELD = /^\s*(\d{1,2}\.\d{1,2}\.\d{4}|\d{4}-\d{2}-\d{2})\s*$/;

/**
 * The Bausteine rich text as blocks, in the register's order. A block is
 * `Bekanntmachungsdatum~Name~Inhalt~Beschlussdatum`; a tilde inside the content stays in the content
 * (the first two fields and a trailing date are taken from the ends).
 */
export function parseBausteine(data: string | null, warnings: string[] = []): NoticeBlock[] {
  if (data === null) return [];
  const blocks: NoticeBlock[] = [];
  for (const chunk of data.split(/<br\s*\/?>\s*(?:\r?\n)?/i)) {
    if (chunk.trim() === '') continue;
    const fields = chunk.split('~');
    if (fields.length < 3) {
      warnings.push('block-unreadable');
      blocks.push({ publishedOn: null, name: null, text: blockText(chunk), decidedOn: null });
      continue;
    }
    // A fourth field that is a date or empty is the decision date; anything else belongs to the content.
    const tail = fields[fields.length - 1]!;
    const last = fields.length >= 4 && (DATE_FIELD.test(tail) || tail.trim() === '') ? fields.pop()!.trim() : null;
    const [published, name, ...content] = fields;
    const publishedOn = DATE_FIELD.test(published!) ? registerDate(published!.trim()) : null;
    if (publishedOn === null && published!.trim() !== '') warnings.push('date-unreadable:Bausteine');
    blocks.push({
      publishedOn,
      name: blockText(name!),
      text: blockText(content.join('~')),
      decidedOn: last ? registerDate(last) : null,
    });
  }
  return blocks;
}

/**
 * Whether a block closes the proceeding: its name is one of CLOSING_BLOCKS, or one of OPENING_REFUSALS
 * whose name or text is about the opening application (its first word, case and umlaut spelling ignored).
 */
export function isClosingBlock(name: string | null, text: string | null = null): boolean {
  if (!name) return false;
  const first = name.trim().split(/\s+/)[0]!.toLowerCase().replace(/oe/g, 'ö').replace(/ue/g, 'ü');
  if (CLOSING_BLOCKS.some((c) => c.toLowerCase() === first)) return true;
  return OPENING_REFUSALS.some((c) => c.toLowerCase() === first) && OPENING_APPLICATION.test(`${name} ${text ?? ''}`);
}

function debtorOf(doc: Doc, warnings: string[]): NoticeDebtor {
  const typeRaw = current(doc, 'Schuldner', 'Type');
  const type = typeRaw === 'J' || typeRaw === 'N' ? typeRaw : null;
  if (typeRaw !== null && type === null) warnings.push('debtor-type-unknown');
  const firstName = current(doc, 'Schuldner', 'Vorname');
  const lastName = current(doc, 'Schuldner', 'Name');
  // A company's name is cut into the two fields wherever the clerk chose (IWG FAQ 7.3): rejoined in order.
  const joined = [firstName, lastName].filter((p): p is string => p !== null).join(' ');
  const name = joined !== '' ? joined : text(doc, 'SchuldnerSuchfeld');
  const fnrRaw = current(doc, 'Schuldner', 'FBNr');
  const fnr = canonicalFnr(fnrRaw);
  if (fnrRaw !== null && fnr === null) warnings.push('fnr-unreadable');
  if (fnr && !fnr.checkLetterValid) warnings.push('fnr-check-letter');
  const birthRaw = current(doc, 'Schuldner', 'GebDat') ?? text(doc, 'Dat_Akt_Geburt') ?? text(doc, 'Dat_Alle_Geburt');
  const birthDate = type === 'J' ? null : iwgDate(birthRaw);
  if (birthRaw !== null && birthDate === null && type !== 'J') warnings.push('date-unreadable:GebDat');
  const street = current(doc, 'Schuldner', 'StrNr');
  const zipCode = current(doc, 'Schuldner', 'PLZ');
  const city = current(doc, 'Schuldner', 'Ort');
  const country = current(doc, 'Schuldner', 'Staat');
  const titles = [current(doc, 'Schuldner', 'Titel'), current(doc, 'Schuldner', 'TitelNach')].filter((t): t is string => t !== null);
  return {
    type,
    name,
    firstName: type === 'N' ? firstName : null,
    lastName: type === 'N' ? lastName : null,
    title: titles.length > 0 ? titles.join(', ') : null,
    address: street || zipCode || city || country ? { street, zipCode, city, country } : null,
    fnrRaw,
    fnr: fnr?.checkLetterValid ? fnr.fnr : null,
    birthDate,
    // The register's personId rule needs the birth date: a namesake without one is nobody's proceeding.
    personId: type === 'N' && firstName && lastName && birthDate ? personId(firstName, lastName, birthDate) : null,
  };
}

/** One edict document (`@form` Edikt) as the document endpoint answers it with `multipart=false`. */
export function parseNoticeDocument(body: string): ParsedNotice {
  const parsed = parseJson(body, 'Ediktsdatei document');
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new IwgContentError('Ediktsdatei document is not a JSON object', body);
  const doc = parsed as Doc;
  const form = text(doc, '@form');
  if (form !== null && form !== 'Edikt') throw new IwgContentError(`Ediktsdatei document has @form ${form}, not Edikt`, body);
  const ediktId = text(doc, 'AZKey');
  if (!ediktId) throw new IwgContentError('Ediktsdatei document has no AZKey', body);
  const warnings: string[] = [];
  const blocks = parseBausteine(richText(doc.Bausteine), warnings);
  const published = dates(doc, 'Dat_Alle_Bekanntmachung', warnings);
  const blockDates = blocks.map((b) => b.publishedOn).filter((d): d is string => d !== null);
  const first = dates(doc, 'Dat_Ori_Bekanntmachung', warnings)[0] ?? min([...published, ...blockDates]);
  const last = dates(doc, 'Dat_Akt_Bekanntmachung', warnings)[0] ?? max([...published, ...blockDates]) ?? first;
  const opened = dates(doc, 'Dat_Akt_Eroeffnung', warnings)[0] ?? min(dates(doc, 'Dat_Alle_Eroeffnung', warnings));
  const modified = text(doc, '@modified');
  return {
    ediktId,
    unid: text(doc, '@unid'),
    modifiedAt: modified && !Number.isNaN(Date.parse(modified)) ? new Date(modified).toISOString() : null,
    aktenzeichen: text(doc, 'Aktenzeichen'),
    court: { code: text(doc, 'Gericht_Code'), name: text(doc, 'Gericht') },
    stateCode: text(doc, 'Bundesland_Code'),
    proceeding: { code: text(doc, 'Verfahrenskurztext'), text: text(doc, 'Verfahrenstext') },
    debtor: debtorOf(doc, warnings),
    firstPublishedOn: first,
    lastPublishedOn: last,
    openedOn: opened,
    blocks,
    isOpen: !blocks.some((b) => isClosingBlock(b.name, b.text)),
    warnings: [...new Set(warnings)],
  };
}

/**
 * Where an entry sorts in a view sorted by AZKey: its AZKey where the view gives it (Deletions), else
 * the AZKey's start written in its Aktenzeichen (`013 001 S 00002/17` -> `013001S0000217`; the AZKey
 * adds a running number, so this sorts at or before it). Null when neither reads.
 */
export function entrySortKey(entry: Pick<ViewEntry, 'ediktId' | 'aktenzeichen'>): string | null {
  if (entry.ediktId) return entry.ediktId;
  const m = /^(\d{3})\s*(\d{3})\s*([A-Za-z]{1,3})\s*(\d{1,5})\s*\/\s*(\d{2})$/.exec(entry.aktenzeichen?.trim() ?? '');
  return m ? `${m[1]}${m[2]}${m[3]}${m[4]!.padStart(5, '0')}${m[5]}` : null;
}

/** `Content-Range: items 0-99/89306` -> 89306; null when absent or unreadable. */
export function contentRangeTotal(header: string | null | undefined): number | null {
  const m = /\/\s*(\d+)\s*$/.exec(header ?? '');
  return m ? Number(m[1]) : null;
}

/** A page of a view: its entries (documents of the page) and the view's (or search's) total. */
export function parseViewPage(body: string, contentRange: string | null | undefined): ViewPage {
  const parsed = parseJson(body, 'Ediktsdatei view page');
  if (!Array.isArray(parsed)) throw new IwgContentError('Ediktsdatei view page is not a JSON array', body);
  const entries: ViewEntry[] = [];
  for (const raw of parsed as unknown[]) {
    // An array is no entry (a page of nested arrays would otherwise read as an empty last page).
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new IwgContentError('Ediktsdatei view entry is not an object', body);
    const e = raw as Doc;
    // Category and total rows of a view have no document behind them.
    const unid = text(e, '@unid');
    if (!unid) continue;
    const deleted = text(e, 'Dat_Loeschung');
    entries.push({
      unid,
      form: text(e, '@form'),
      aktenzeichen: text(e, 'Aktenzeichen'),
      ediktId: text(e, 'AZKey'),
      deletedAt: deleted && !Number.isNaN(Date.parse(deleted)) ? new Date(deleted).toISOString() : null,
    });
  }
  return { entries, total: contentRangeTotal(contentRange) };
}

/**
 * Domino's answer to a call without valid credentials: its login form, as HTTP 200 HTML (by content
 * type or by content). Other HTML where JSON was asked for (a maintenance page, say) is not: it is
 * content that cannot be read, and pausing the queue for credentials would send an operator astray.
 */
export function isLoginForm(contentType: string | null | undefined, body: string): boolean {
  const head = body.trimStart().slice(0, 4000).toLowerCase();
  const html = contentType?.toLowerCase().includes('text/html') || head.startsWith('<');
  return Boolean(html) && (head.includes('names.nsf?login') || head.includes('<form') || head.includes('type="password"'));
}
