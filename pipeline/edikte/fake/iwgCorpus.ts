// The documents a fake IWG interface serves (fixtures/corpus/edikte/README.md): edicts and Loeschung
// documents, and the two views as they stand at a given moment. An edict is in `All` from its first
// publication until a deletion of its AZKey; a deletion is in `Deletions` from its Dat_Loeschung on.
// Tests change the register between crawls with putDocument() and deleteEdict().
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { iwgDate } from '../iwgParser.js';
import { deletionDocument, dominoJson } from './iwgDocuments.js';

type Doc = Record<string, unknown>;

export interface FakeDocument {
  unid: string;
  ediktId: string;
  aktenzeichen: string | null;
  form: 'Edikt' | 'Loeschung';
  doc: Doc;
  /** The bytes served (as Domino writes them). */
  body: string;
  /** Edict: from when it is in `All` (its first publication); deletion: Dat_Loeschung. In ms. */
  fromMs: number;
  modifiedMs: number;
}

const str = (v: unknown) => (Array.isArray(v) ? v[0] : v) as string | undefined;

function toDocument(doc: Doc, body?: string): FakeDocument {
  const unid = str(doc['@unid']);
  const ediktId = str(doc.AZKey);
  if (!unid || !ediktId) throw new Error('fake IWG document without @unid or AZKey');
  const form = str(doc['@form']) === 'Loeschung' ? 'Loeschung' : 'Edikt';
  const published = iwgDate(str(doc.Dat_Ori_Bekanntmachung) ?? str(doc.Dat_Alle_Bekanntmachung) ?? null);
  const fromMs = form === 'Loeschung' ? Date.parse(String(doc.Dat_Loeschung)) : published ? Date.parse(`${published}T00:00:00Z`) : 0;
  const modified = Date.parse(String(doc['@modified'] ?? ''));
  return {
    unid, ediktId, aktenzeichen: str(doc.Aktenzeichen) ?? null, form, doc, body: body ?? dominoJson(doc), fromMs,
    modifiedMs: Number.isNaN(modified) ? fromMs : modified,
  };
}

const byKey = (a: FakeDocument, b: FakeDocument) => (a.ediktId < b.ediktId ? -1 : a.ediktId > b.ediktId ? 1 : a.unid < b.unid ? -1 : 1);

export class IwgCorpus {
  private readonly edicts = new Map<string, FakeDocument>();
  /** The unid of each AZKey's edict. */
  private readonly unidOfKey = new Map<string, string>();
  private readonly deletions = new Map<string, FakeDocument>();
  /** Earliest deletion per AZKey. */
  private readonly deletedKeys = new Map<string, number>();
  /** Bumped on every change, so cached views are rebuilt. */
  version = 0;

  /** Loads `<dir>/documents/*.json`, `<dir>/documents.ndjson` (one served document per line) and `<dir>/deletions.json`. */
  static async load(dir: string): Promise<IwgCorpus> {
    const corpus = new IwgCorpus();
    const files = await readdir(join(dir, 'documents')).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.json')).sort()) {
      const body = (await readFile(join(dir, 'documents', file), 'utf8')).trim();
      corpus.add(toDocument(JSON.parse(body) as Doc, body));
    }
    const lines = await readFile(join(dir, 'documents.ndjson'), 'utf8').catch(() => '');
    for (const line of lines.split('\n')) if (line.trim() !== '') corpus.add(toDocument(JSON.parse(line) as Doc, line.trim()));
    const deletions = JSON.parse(await readFile(join(dir, 'deletions.json'), 'utf8').catch(() => '[]')) as Doc[];
    for (const doc of deletions) corpus.add(toDocument(doc));
    return corpus;
  }

  private add(d: FakeDocument): void {
    if (d.form === 'Loeschung') {
      this.deletions.set(d.unid, d);
      this.deletedKeys.set(d.ediktId, Math.min(d.fromMs, this.deletedKeys.get(d.ediktId) ?? Infinity));
    } else {
      // One edict per AZKey: a new unid for a known AZKey replaces the old document (IWG FAQ 7.1).
      const old = this.unidOfKey.get(d.ediktId);
      if (old !== undefined && old !== d.unid) this.edicts.delete(old);
      this.unidOfKey.set(d.ediktId, d.unid);
      this.edicts.set(d.unid, d);
    }
    this.version++;
  }

  /** Adds or replaces an edict (a new publication, a changed debtor). */
  putDocument(doc: Doc): void {
    this.add(toDocument(doc));
  }

  /** The register deletes an edict: a Loeschung document with Dat_Loeschung `deletedAt` (ISO instant). */
  deleteEdict(ediktId: string, deletedAt: string, unid = `D${ediktId.padEnd(31, '0')}`.slice(0, 32)): void {
    const unidOfEdict = this.unidOfKey.get(ediktId);
    const edict = unidOfEdict === undefined ? undefined : this.edicts.get(unidOfEdict);
    // The Loeschung's fields (AZKey, Gericht_Code, GA, GZ, AZ, Jahr, PZ, EN, Dat_Loeschung), as the interface notes list them.
    const doc = deletionDocument({ unid, ediktId, aktenzeichen: edict?.aktenzeichen ?? '', deletedAt });
    this.add(toDocument({ ...doc, '@modified': deletedAt, Aktenzeichen: edict?.aktenzeichen ?? null }));
  }

  private deletedAt(ediktId: string, nowMs: number): boolean {
    return (this.deletedKeys.get(ediktId) ?? Infinity) <= nowMs;
  }

  /** A view's documents at `nowMs`, sorted by AZKey. */
  view(name: 'All' | 'Deletions', nowMs: number): FakeDocument[] {
    const docs = name === 'Deletions'
      ? [...this.deletions.values()].filter((d) => d.fromMs <= nowMs)
      : [...this.edicts.values()].filter((e) => e.fromMs <= nowMs && !this.deletedAt(e.ediktId, nowMs));
    return docs.sort(byKey);
  }

  /** A document by @unid as the register holds it at `nowMs` (null: unknown, not yet published or deleted). */
  document(unid: string, nowMs: number): FakeDocument | null {
    const edict = this.edicts.get(unid);
    if (edict) return edict.fromMs <= nowMs && !this.deletedAt(edict.ediktId, nowMs) ? edict : null;
    const deletion = this.deletions.get(unid);
    return deletion && deletion.fromMs <= nowMs ? deletion : null;
  }

  get size(): number {
    return this.edicts.size;
  }
}
