// Builds companies with chosen attributes through the real store functions (so every row has its
// change rows and goes through the indexer), for search and API tests.
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { storeCompanyExtract } from '../../pipeline/store/companyStore.js';
import { storeAnnualAccount, storeDocumentListings } from '../../pipeline/store/documentStore.js';
import type { Sql } from '../../runtime/db.js';
import type { CompanyExtract, ParsedAnnualAccount } from '../../schemas/firmenbuchRecords.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { emptyFigures } from '../../schemas/keyFigures.js';
import { createLogger } from '../../runtime/logger.js';

export interface SeedCompany {
  digits: number;
  name: string;
  legalForm?: string;
  court?: string;
  city?: string;
  zipCode?: string;
  /** Street and house number of the current address (default `Hauptstraße 1`). */
  street?: [string, string];
  active?: boolean;
  formerNames?: string[];
  oenace?: string[];
  /** Geschäftszweig: the pipeline derives ÖNACE codes from it when the company is stored. */
  businessPurpose?: string;
  /** Figures by JSON key (decimal strings); omitted keys are null. */
  figures?: Record<string, string>;
  documentDate?: string;
}

export function seedFnr(digits: number): string {
  return `${digits}${fnrCheckLetter(digits)}`;
}

function extractFor(c: SeedCompany): CompanyExtract {
  const fnr = seedFnr(c.digits);
  return {
    fnr, fnrCheckLetterValid: true, asOf: null, queriedAt: null, checksum: null,
    name: c.name, nameLines: [c.name],
    formerNames: (c.formerNames ?? []).map((name, i) => ({ name, lines: [name], vnr: String(i + 1).padStart(3, '0') })),
    addresses: [{
      isCurrent: true, vnr: '001', form: 'structured', streetLine: (c.street ?? ['Hauptstraße', '1']).join(' '), street: c.street?.[0] ?? 'Hauptstraße', houseNumber: c.street?.[1] ?? '1',
      staircase: null, door: null, deliveryNote: null, zipCode: c.zipCode ?? '1010', city: c.city ?? 'Wien', country: 'AUT', deliverable: true,
    }],
    seat: c.city ?? 'Wien', municipalityCode: null, municipality: null,
    legalForm: { code: c.legalForm ?? 'GES', text: null }, capital: null, businessPurpose: c.businessPurpose ?? null,
    status: c.active === false ? 'deleted' : 'active', deletion: null,
    court: { code: c.court ?? '007', text: null }, euid: null, kur: null,
    registerEntries: [{ vnr: '001', executedOn: '2020-01-01', court: null, az: null, applicationTexts: [], receivedOn: null }],
    functions: [], parties: [], holdings: [], warnings: [],
  };
}

export async function seedCompanies(sql: Sql, companies: SeedCompany[]): Promise<void> {
  for (const c of companies) {
    const fnr = seedFnr(c.digits);
    await storeCompanyExtract(sql, extractFor(c));
    for (const code of c.oenace ?? []) {
      const [known] = await sql`SELECT 1 FROM oenace_class WHERE version = '2008' AND code = ${code}`;
      if (!known) throw new Error(`seed: ${code} is no ÖNACE 2008 code`);
      await sql`INSERT INTO company_oenace (fnr, version, code, is_primary, source) VALUES (${fnr}, '2008', ${code}, true, 'test')`;
      await sql`INSERT INTO change_log (type, fnr, action, changed_fields) VALUES ('business', ${fnr}, 'updated', '{oenaces}')`;
    }
    if (c.figures) {
      const key = `${String(c.digits).padStart(6, '0')}_0070000000000_000___000_30_${c.digits}_XML`;
      const documentDate = c.documentDate ?? '2024-12-31';
      await storeDocumentListings(sql, fnr, [{
        key, fnr, fnrDigits: String(c.digits), az: null, documentType: { code: '48', text: 'Jahresabschluss' }, documentDate,
        contentType: 'application/xml', fileExtension: 'xml', sizeBytes: 1, remark: null, balanceSheetDate: documentDate,
        sizeClass: 'K', vnr: null, filedOn: null,
      }]);
      const parsed: ParsedAnnualAccount = {
        format: 'jab4', fnr, companyName: c.name, documentDate, fiscalYearStart: null, fiscalYearEnd: documentDate,
        currency: 'EUR', unit: 'E', unitFactor: 1, sizeClass: 'K', pnlMethod: null, kind: 'JAB', hasPositions: true,
        figures: { ...emptyFigures(), ...c.figures }, warnings: [],
      };
      await storeAnnualAccount(sql, { documentKey: key, fnr, parsed, rawXml: '<seeded/>', filedOn: null, parserVersion: 1 });
    }
  }
}

/** seedCompanies, then the search read model built over them and the indexer caught up. */
export async function seedSearchable(sql: Sql, companies: SeedCompany[]): Promise<void> {
  await seedCompanies(sql, companies);
  await rebuildReadModel(sql, createLogger('silent'));
  while ((await indexOnce(sql)) > 0);
}
