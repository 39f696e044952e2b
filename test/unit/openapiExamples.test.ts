// Every example in the generated OpenAPI document is checked against the schema it stands beside:
// media-type examples of request and response bodies (inline or by $ref to components/examples),
// parameter examples and examples inside schemas. The document's JSON Schema is turned into a
// validator (zod's fromJSONSchema, with components/schemas as $defs); objects that do not declare
// additionalProperties are treated as closed, so a misspelt or undocumented field fails as well.
// The read endpoints must carry examples, the validator must reject wrong ones, and the documented
// schemas must accept what the presenters really produce.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../api/openapi/document.js';
import { presentChange, presentCourtNotice } from '../../api/presenters/changes.js';
import { presentProfile } from '../../api/presenters/businesses.js';
import { REGISTER_UNAVAILABLE } from '../../api/routes/documents.js';
import { fnrCheckLetter, personId } from '../../schemas/identifiers.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { presentScreenerRow } from '../../schemas/screenerRecords.js';

type Json = Record<string, unknown>;
type OpenApi = {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; examples?: Record<string, { summary?: string; value: unknown }> };
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of a schema with `#/components/schemas/X` refs pointing at `#/$defs/X`, OpenAPI's `example`
 * annotations dropped, and every object that does not declare additionalProperties closed.
 */
function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/$defs/');
    else if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictSchema(v)]));
    else out[key] = strictSchema(value);
  }
  if (isObject(out.properties) && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

function validatorFor(doc: OpenApi) {
  const defs = Object.fromEntries(Object.entries(doc.components.schemas).map(([name, s]) => [name, strictSchema(s)]));
  /** The problems of `value` against `schema` (empty when it conforms). */
  return (schema: Json, value: unknown): string[] => {
    const validator = z.fromJSONSchema({ ...(strictSchema(schema) as Json), $defs: defs } as never);
    const result = validator.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  };
}

interface FoundExample { where: string; schema: Json; value: unknown }

/** The value of a media type's or parameter's example entry, following $refs into components/examples. */
function exampleValue(doc: OpenApi, entry: unknown): unknown {
  if (isObject(entry) && typeof entry.$ref === 'string') {
    const name = entry.$ref.replace('#/components/examples/', '');
    const found = doc.components.examples?.[name];
    if (!found) throw new Error(`dangling example reference ${entry.$ref}`);
    return found.value;
  }
  return (entry as { value: unknown }).value;
}

/** Examples inside a schema (`example` on any node): each against the node it annotates. */
function schemaExamples(where: string, schema: unknown, out: FoundExample[]): void {
  if (Array.isArray(schema)) return schema.forEach((s, i) => schemaExamples(`${where}[${i}]`, s, out));
  if (!isObject(schema)) return;
  if ('example' in schema) out.push({ where: `${where} (schema example)`, schema, value: schema.example });
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example') continue;
    if (key === 'properties' && isObject(value)) for (const [k, v] of Object.entries(value)) schemaExamples(`${where}.${k}`, v, out);
    else schemaExamples(`${where}/${key}`, value, out);
  }
}

function mediaExamples(doc: OpenApi, where: string, content: unknown, out: FoundExample[]): void {
  if (!isObject(content)) return;
  for (const [type, media] of Object.entries(content as Record<string, Json>)) {
    const schema = media.schema as Json;
    if ('example' in media) out.push({ where: `${where} ${type}`, schema, value: media.example });
    for (const [name, entry] of Object.entries((media.examples as Json | undefined) ?? {})) {
      out.push({ where: `${where} ${type} examples.${name}`, schema, value: exampleValue(doc, entry) });
    }
  }
}

/** Every example of the document with the schema it must satisfy. */
function allExamples(doc: OpenApi): FoundExample[] {
  const out: FoundExample[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of (op.parameters as Json[] | undefined) ?? []) {
        const schema = (p.schema as Json) ?? {};
        if ('example' in p) out.push({ where: `${at} parameter ${String(p.name)}`, schema, value: p.example });
        for (const [name, entry] of Object.entries((p.examples as Json | undefined) ?? {})) {
          out.push({ where: `${at} parameter ${String(p.name)} examples.${name}`, schema, value: exampleValue(doc, entry) });
        }
        schemaExamples(`${at} parameter ${String(p.name)}`, schema, out);
      }
      mediaExamples(doc, `${at} request body`, (op.requestBody as Json | undefined)?.content, out);
      for (const [status, response] of Object.entries((op.responses as Record<string, Json>) ?? {})) {
        mediaExamples(doc, `${at} ${status}`, response.content, out);
      }
    }
  }
  for (const [name, schema] of Object.entries(doc.components.schemas)) schemaExamples(`components.schemas.${name}`, schema, out);
  return out;
}

const freshDocument = () => buildOpenApiDocument() as unknown as OpenApi;
const doc = freshDocument();
const validate = validatorFor(doc);
const examples = allExamples(doc);

describe('OpenAPI examples', () => {
  it('every example in the document conforms to its schema', () => {
    expect(examples.length).toBeGreaterThan(90);
    const failures = examples.flatMap((e) => validate(e.schema, e.value).map((problem) => `${e.where}: ${problem}`));
    expect(failures).toEqual([]);
  });

  it('every read endpoint carries an example on each media type of its answers and request bodies', () => {
    const readTags = new Set(['Companies', 'People', 'Feeds', 'Notices', 'Documents', 'Catalogues']);
    const missing: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!(op.tags as string[]).some((t) => readTags.has(t))) continue;
        operations++;
        const bodies: Array<[string, unknown]> = Object.entries((op.responses as Record<string, Json>) ?? {})
          .filter(([status]) => /^2\d\d$/.test(status) || status === '503')
          .map(([status, r]) => [status, r.content]);
        if (op.requestBody) bodies.push(['request body', (op.requestBody as Json).content]);
        for (const [what, content] of bodies) {
          for (const [type, media] of Object.entries((content as Record<string, Json>) ?? {})) {
            if (!('example' in media) && Object.keys((media.examples as Json) ?? {}).length === 0) missing.push(`${method.toUpperCase()} ${path} ${what} ${type}`);
          }
        }
      }
    }
    // Screener, count, names, similar, profile, resolve-names; people (3), graph; 5 feeds, aggregated, edikt
    // change; download; 8 catalogues (with /keyfigures).
    expect(operations).toBe(6 + 4 + 7 + 1 + 8);
    expect(missing).toEqual([]);
  });

  it('answers the download endpoint in both document types and the 503 with exactly the contract sentence', () => {
    const download = doc.paths['/documents/download/{documentKey}']!.get!.responses as Record<string, { content: Record<string, Json> }>;
    expect(Object.keys(download['200']!.content).sort()).toEqual(['application/pdf', 'application/xml']);
    const unavailable = examples.filter((e) => e.where.startsWith('GET /documents/download/{documentKey} 503 text/plain'));
    expect(unavailable.map((e) => e.value)).toEqual(['Firmenbuch API aktuell nicht verfügbar']);
    expect(REGISTER_UNAVAILABLE).toBe('Firmenbuch API aktuell nicht verfügbar');
  });

  it('references only registered examples and registers none it does not use', () => {
    const text = JSON.stringify(doc.paths);
    const referenced = new Set([...text.matchAll(/#\/components\/examples\/(\w+)/g)].map((m) => m[1]));
    expect([...referenced].sort()).toEqual(Object.keys(doc.components.examples ?? {}).sort());
  });

  it('uses identifiers that follow the contract: fnr check letters, personIds, graph edges between its own nodes', () => {
    const values = Object.values(doc.components.examples ?? {}).map((e) => e.value);
    const fnrs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!isObject(v)) return;
      for (const [key, value] of Object.entries(v)) {
        if ((key === 'fnr' || key === 'relatedFnr') && typeof value === 'string') fnrs.add(value);
        if (key === 'personId' && typeof value === 'string' && isObject(v) && 'firstName' in v) {
          expect(value).toBe(personId(v.firstName as string, v.lastName as string, v.birthDate as string | null));
        }
        walk(value);
      }
    };
    values.forEach(walk);
    expect(fnrs.size).toBeGreaterThan(5);
    for (const fnr of fnrs) {
      const m = /^([1-9]\d{0,5})([a-z])$/.exec(fnr);
      expect(m, fnr).not.toBeNull();
      expect(fnrCheckLetter(Number(m![1])), fnr).toBe(m![2]);
    }
    const graph = doc.components.examples!.Graph!.value as { nodes: { id: string }[]; edges: { source: string; target: string }[] };
    const ids = new Set(graph.nodes.map((n) => n.id));
    for (const e of graph.edges) expect(ids.has(e.source) && ids.has(e.target), `${e.source} -> ${e.target}`).toBe(true);
  });
});

describe('the example validator', () => {
  const DELETE = Symbol('delete');
  /** Sets (or deletes) the value at a dotted path (`data.0.action`) of an example. */
  const change = (value: unknown, path: string, to: unknown) => {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], value) as Record<string, unknown>;
    if (to === DELETE) delete parent[keys.at(-1)!];
    else parent[keys.at(-1)!] = to;
  };
  // The same check with one example broken at a time: each must be reported.
  const broken = (name: string, path: string, to: unknown): string[] => {
    const copy = freshDocument();
    change(copy.components.examples![name]!.value, path, to);
    const check = validatorFor(copy);
    const found = allExamples(copy).filter((e) => e.where.includes(`examples.${name}`));
    expect(found.length).toBeGreaterThan(0);
    return found.flatMap((e) => check(e.schema, e.value));
  };

  it.each([
    ['CompanyProfile', 'a boolean as a string', 'isActive', 'yes'],
    ['CompanyProfile', 'a required field missing', 'fnr', DELETE],
    ['CompanyProfile', 'a coded value without its text', 'legalForm.text', DELETE],
    ['CompanyProfile', 'a figure as text', 'latestKeyFigures.umsatzerloese', '9874215.30'],
    ['CompanyProfile', 'one of the 47 figures left out', 'latestKeyFigures.employees', DELETE],
    ['CompanyProfile', 'a function without its code', 'functions.0.functionCode', DELETE],
    ['ScreenerPage', 'an undocumented field on a row', 'data.0.revenue', 1],
    ['ScreenerPage', 'a fractional page number', 'pageNumber', 1.5],
    ['BusinessChanges', 'an action outside the enum', 'data.0.action', 'renamed'],
    ['Graph', 'a node type outside the enum', 'nodes.0.type', 'partner'],
    ['ResolveNamesRequest', 'more than 1000 names', 'names', Array.from({ length: 1001 }, (_, i) => `Firma ${i}`)],
    ['ResolveNamesResponse', 'an unknown match band', '0.match', 'maybe'],
    ['CitiesPage', 'a zip code as a number', 'data.0.zipCodes.0', 8010],
    ['RegisterUnavailable', 'another 503 text', '', 'Service Unavailable'],
  ])('rejects %s with %s', (name, _what, path, to) => {
    if (path === '') {
      // A whole value (the 503 body is a plain string).
      const copy = freshDocument();
      copy.components.examples![name]!.value = to;
      const check = validatorFor(copy);
      const found = allExamples(copy).filter((e) => e.where.includes(`examples.${name}`));
      expect(found).toHaveLength(1);
      expect(check(found[0]!.schema, found[0]!.value)).not.toEqual([]);
      return;
    }
    expect(broken(name, path, to)).not.toEqual([]);
  });
});

describe('the documented schemas accept what the presenters produce', () => {
  const schemaOf = (path: string, status = '200') =>
    ((doc.paths[path]!.get!.responses as Record<string, { content: Record<string, { schema: Json }> }>)[status]!.content['application/json']!.schema);
  const figures = Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), i % 3 === 0 ? null : String(1000 * i + 0.5)]));

  it('a screener row', () => {
    const row = presentScreenerRow({
      fnr: '30435h', name: 'Müller Bau GmbH', legalFormCode: 'GES', legalFormText: 'Gesellschaft mit beschränkter Haftung', courtCode: '007',
      courtText: 'Handelsgericht Wien', city: 'Wien', zipCode: '1100', isActive: true, isScheinunternehmen: false, hasEdikt: false,
      documentKey: 'K_XML', documentDate: '2024-12-31', figures,
    });
    const withoutFiling = { ...row, fnr: '34853f', legalForm: null, court: null, keyFigures: null };
    expect(validate(schemaOf('/businesses'), { data: [row, withoutFiling], pageNumber: 1, pageSize: 10, totalRecords: 2, totalPages: 1 })).toEqual([]);
  });

  it('a change entry of every type', () => {
    const base = { fnr: '30435h', recordedAt: new Date('2025-11-04T06:15:12.418Z'), action: 'updated' as const, changedFields: ['addresses'] };
    const data = [
      presentChange({ ...base, id: 1, type: 'business', vnr: '007' } as never),
      presentChange({ ...base, id: 2, type: 'document', documentKey: 'K_PDF' } as never),
      presentChange({ ...base, id: 3, type: 'edikt', ediktId: '007015S0004125001' } as never),
      presentChange({ ...base, id: 4, type: 'trade', fnr: null, gisaZahl: '33618544' } as never),
    ];
    expect(validate(schemaOf('/globalchanges'), { data, pageNumber: 1, pageSize: 100, totalRecords: 4, totalPages: 1 })).toEqual([]);
  });

  it('a court notice change, and one whose change recorded no notice', () => {
    const change = presentChange({ id: 3, type: 'edikt', fnr: '30435h', recordedAt: new Date('2025-11-04T06:15:12.418Z'), action: 'created', changedFields: ['opened'], ediktId: 'E1' } as never);
    const notice = presentCourtNotice({
      edikt_id: 'E1', aktenzeichen: '41 S 125/25d', court_code: '007', court_name: 'Handelsgericht Wien', proceeding_code: 'SVE', debtor_type: 'J',
      debtor_name: 'Müller Bau GmbH', debtor_address: { street: 'Favoritenstraße 112', zipCode: '1100', city: 'Wien' }, fnr: '30435h',
      link_evidence: 'register-fn', link_confidence: 1, opened_on: '2025-10-13', is_open: true, blocks: [{ publishedOn: '2025-10-14', name: 'Eröffnung' }],
    });
    expect(validate(schemaOf('/edikte/changes/{id}'), { ...change, notice })).toEqual([]);
    expect(validate(schemaOf('/edikte/changes/{id}'), { ...change, notice: presentCourtNotice(null) })).toEqual([]);
  });

  it('a company profile', () => {
    const party = { pnr: 'A', kind: 'person', personId: 'andrea-müller-1972-04-18', relatedFnr: null, organisationId: null, partyName: 'Andrea Müller' };
    const profile = presentProfile({
      company: {
        fnr: '30435h', name: 'Müller Bau GmbH', legalFormCode: 'GES', legalFormText: 'Gesellschaft mit beschränkter Haftung', courtCode: '007',
        courtText: 'Handelsgericht Wien', status: 'active', euid: 'ATBRA.030435-000', seat: 'Wien', municipalityCode: '90001', municipalityText: 'Wien',
        capitalAmount: '35000.00', capitalCurrency: 'EUR', businessPurpose: null, oenaceNumericCode: null, lastCrawledAt: new Date('2025-11-04T06:15:12Z'),
        isScheinunternehmen: true,
      },
      names: [{ name: 'Müller & Söhne Baugesellschaft m.b.H.', vnr: '004' }],
      addresses: [{ line: null, street: 'Favoritenstraße', houseNumber: '112', staircase: null, door: null, zipCode: '1100', city: 'Wien', country: 'AUT', isCurrent: true }],
      oenaces: [{
        code: 'F 41.20-1', isPrimary: true, shortTitleDe: 'Wohnungs- und Siedlungsbau', titleDe: 'Wohnungs- und Siedlungsbau', level: 5, edvCode: 'F41201',
        source: 'derived', confidence: 0.85, evidence: { words: ['Baumeister'], tradeKeys: ['290500'] },
      }],
      entries: [{ vnr: '001', executedOn: '1988-06-01', courtCode: '007', courtText: 'Handelsgericht Wien', az: '73 Fr 2841/88', applicationTexts: ['Neueintragung'] }],
      functions: [
        { ...party, functionCode: 'GF', functionText: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)', representationCode: 'E', representationText: 'Einzelvertretung', since: '2011-03-01', until: null, isCurrent: true },
        { ...party, kind: 'company', personId: null, relatedFnr: '388410t', partyName: 'Murtal Beteiligungsverwaltung GmbH', functionCode: 'GS', functionText: null, representationCode: null, representationText: null, since: null, until: null, isCurrent: true },
      ],
      holdings: [{ ...party, kind: 'organisation', personId: null, organisationId: '5f1c0a9e2b7d4c31', capital: '10500.00', paidIn: null, currency: 'EUR', since: null, until: null, isCurrent: true }],
      filings: [{
        documentKey: 'K_XML', documentDate: '2024-12-31', fiscalYearStart: '2024-01-01', fiscalYearEnd: '2024-12-31', currency: 'EUR', sizeClass: 'klein',
        format: 'jab4', pnlMethod: 'GKV', kind: null, filedOn: '2025-07-28', figures,
      }],
      documents: [
        {
          documentKey: 'K_XML', typeCode: '48', typeText: 'Jahresabschluss', documentDate: null, balanceSheetDate: '2024-12-31', filedOn: '2025-07-28',
          contentType: 'application/xml', fileExtension: 'xml', sizeClass: 'klein', sizeBytes: 48213, remark: null, contentRefused: null,
          parseError: null, parsedDate: '2024-12-31', parsed: true,
        },
        {
          documentKey: 'K_OLD_XML', typeCode: '48', typeText: 'Jahresabschluss', documentDate: null, balanceSheetDate: '2023-12-31', filedOn: '2024-07-01',
          contentType: 'application/xml', fileExtension: 'xml', sizeClass: 'klein', sizeBytes: 512, remark: null, contentRefused: null,
          parseError: 'no GJ/ENDE element', parsedDate: null, parsed: false,
        },
        {
          documentKey: 'K_GV_PDF', typeCode: '42', typeText: 'Gesellschaftsvertrag', documentDate: '2011-02-21', balanceSheetDate: null, filedOn: '2011-02-25',
          contentType: 'application/pdf', fileExtension: 'pdf', sizeClass: null, sizeBytes: 188410, remark: null, contentRefused: null,
          parseError: null, parsedDate: null, parsed: false,
        },
      ],
      bogus: [{
        publishedOn: '2024-02-01', decisionFinalOn: null, deemedSince: '2024-01-15', name: 'Müller Bau GmbH', address: '1100 Wien, Quellenstraße 145',
        uid: 'ATU12345675', urCode: null, listedFnr: null, linkEvidence: 'name-address', linkConfidence: '0.98',
      }],
      notices: [{
        ediktId: '007015S0004125001', aktenzeichen: '41 S 125/25d', courtCode: '007', courtName: 'Handelsgericht Wien', proceedingCode: 'SVE',
        proceedingText: 'Sanierungsverfahren mit Eigenverwaltung', firstPublishedOn: '2025-10-14', lastPublishedOn: '2025-10-14', isOpen: true,
        linkEvidence: 'register-fn', linkConfidence: '1.00',
      }],
      licences: [{
        gisaZahl: '100000054', fnr: '33918f', tradeKey: '290500', wording: 'Baumeister', kind: 'reglementiert', authorityCode: '324',
        authorityText: 'Bezirkshauptmannschaft St. Pölten', effectiveFrom: '1995-09-01', endedOn: null, isDormant: false, dormantFrom: null,
        dormantUntil: null, holderType: 'legal', holderName: 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', street: 'Wiener Straße 12',
        zipCode: '3002', city: 'Purkersdorf', managerName: 'Gerhard Leitner', managerPersonId: null,
      }],
    } as Parameters<typeof presentProfile>[0]);
    expect(validate(schemaOf('/businesses/{fnr}'), profile)).toEqual([]);
  });
});
