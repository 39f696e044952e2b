// The screener's parameters (GET /businesses, /businesses/count, saved queries), derived from the
// figure list: `<figure>_gte` / `<figure>_lte` for all 47 figures and `orderBy` on any figure base.
// The zod shape validates query strings; SCREENER_FILTERS gives each name the kind a saved query
// stores it as (api/screener/filters.ts); ScreenerQuery is the parsed form both search backends take.
import { z } from 'zod';
import { fnrFilterValue } from './identifiers.js';
import { KEY_FIGURES, figureParam, figureSignConvention, figureUnit, type KeyFigureDefinition } from './keyFigures.js';
import { OENACE_CONFIDENCE_THRESHOLD } from './oenaceAssignment.js';

const decimal = z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number such as 1500000 or -250.5');
const bool = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
const text = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const FIGURE_PARAMS = KEY_FIGURES.map(figureParam);
/** `orderBy=name`: by name alone (the default order puts active companies first). */
export const ORDER_BY_NAME = 'name';

/** What one figure is, in a line: meaning in English and German, where it is filed, its unit. */
function figureMeaning(f: KeyFigureDefinition): string {
  return `${f.label} (${f.labelDe}; ${f.position}) of the latest filing, in ${figureUnit(f) === 'EUR' ? 'EUR' : 'persons (average headcount)'}`;
}

/** A range parameter's description: bound, meaning, unit and the sign as filed (expenses: how to filter). */
function rangeDescription(f: KeyFigureDefinition, bound: 'gte' | 'lte'): string {
  const naive = f.sign === 'negative' && bound === 'gte' ? ` A positive bound here finds nothing: \`${figureParam(f)}_gte=1000000\` matches no company.` : '';
  return `${bound === 'gte' ? 'At least' : 'At most'} this value: ${figureMeaning(f)}. ${figureSignConvention(f)}${naive} ` +
    'A company without the figure never matches. See GET /keyfigures.';
}

const rangeShape = Object.fromEntries(KEY_FIGURES.flatMap((f) => {
  const p = figureParam(f);
  return [[`${p}_gte`, decimal.optional().meta({ description: rangeDescription(f, 'gte') })], [`${p}_lte`, decimal.optional().meta({ description: rangeDescription(f, 'lte') })]];
})) as Record<string, z.ZodOptional<typeof decimal>>;

const EXPENSE_PARAMS = KEY_FIGURES.filter((f) => f.sign === 'negative').map(figureParam);
/** Per orderBy value: what it sorts by, and for expenses which direction puts the largest first. */
const orderByValues = Object.fromEntries([
  [ORDER_BY_NAME, 'By name alone, active and deleted companies mixed.'],
  ...KEY_FIGURES.map((f) => [figureParam(f), `${figureMeaning(f)}.${f.sign === 'negative' ? ' Negative as filed: ascending puts the largest expense first.' : ''}`]),
]);

/** Filter parameters: everything but paging. Saved queries store exactly these. */
export const screenerFilterShape = {
  search: text().optional().meta({
    description: 'Text contained in the current or a former name (case, umlaut spelling and punctuation ignored: `mueller bau` finds Müller-Bau).',
    example: 'bau',
  }),
  fnr: text(20).transform(fnrFilterValue).optional().meta({
    description: 'One company number; spaces and leading zeros are dropped, the check letter is compared as given (`034853 f` = `34853f`).',
  }),
  city: text().optional().meta({ description: 'City of the current address, the whole name (case and umlaut spelling ignored).', example: 'Graz' }),
  zipCode: z.string().trim().regex(/^\d{4}$/, 'must be a four-digit Austrian zip code').optional()
    .meta({ description: 'Zip code of the current address (four digits).', example: '8010' }),
  courtCode: z.string().trim().regex(/^\d{3}$/, 'must be a three-digit court code').optional()
    .meta({ description: 'Register court, three digits (GET /courts).', example: '007' }),
  legalFormCode: z.string().trim().regex(/^[A-Z]{1,5}$/, 'must be a legal-form code such as GES').optional()
    .meta({ description: 'Legal form code (GET /legalforms): `GES` GmbH, `AG`, `KG`, `OG`, ...', example: 'GES' }),
  oenaceCode: z.string().trim().regex(/^[A-Ua-u]?\s?\d{0,2}(\.\d{1,2})?(-\d)?$/, 'must be an ÖNACE code such as C, C 10, C 10.7 or C 10.71-1')
    .refine((v) => v.replace(/\W/g, '') !== '', 'must not be empty').optional().meta({
      description: 'ÖNACE 2008 code at any level (section to subclass); matches its descendants. The register carries no industry code: '
        + `codes are derived from the business purpose and the trade licences, and count here from confidence ${OENACE_CONFIDENCE_THRESHOLD} up (measured right at least 95 % of the time, docs/oenace.md).`,
    }),
  gisaLicenseKey: z.string().trim().regex(/^\d{1,6}$/, 'must be a trade key (digits)').optional()
    .meta({ description: 'Companies holding a current (not ended) trade licence with this trade key (GET /trades).', example: '290500' }),
  active: bool.optional().meta({ description: '`true`: companies still in the register; `false`: deleted ones. Without it: both.' }),
  isScheinunternehmen: bool.optional().meta({
    description: 'On the finance ministry\'s current list of bogus companies: a listing linked to the company by its FN or by name and address with confidence >= 0.9.',
  }),
  orderBy: z.enum([ORDER_BY_NAME, ...FIGURE_PARAMS] as [string, ...string[]], { error: `must be name or one of the figure names (${FIGURE_PARAMS.slice(0, 3).join(', ')}, ...)` }).optional()
    .meta({
      description: '`name` (by name alone, active and deleted mixed) or a figure parameter base such as `guv.Umsatzerloese`. Without it: active first, then by name. ' +
        `Expenses (${EXPENSE_PARAMS.join(', ')}) are stored negative as filed: sort them ascending (orderByDescending=false) for the largest first. ` +
        'GET /keyfigures lists every figure with its meaning, unit and sign.',
      'x-enumDescriptions': orderByValues,
    }),
  orderByDescending: bool.optional().meta({
    description: '`true` sorts orderBy from the largest value down (default `false`). Companies without the figure come last either way.',
  }),
  ...rangeShape,
};

export const screenerFilters = z.object(screenerFilterShape);
export type ScreenerFilterInput = z.infer<typeof screenerFilters>;

// ---------------------------------------------------------------------------------------------------
// The filter parameters by kind, for filter sets given as JSON (saved queries)

export type FilterKind = 'text' | 'fnr' | 'boolean' | 'number' | 'figureName';

const TEXT_FILTERS = ['search', 'city', 'zipCode', 'courtCode', 'legalFormCode', 'oenaceCode', 'gisaLicenseKey'] as const;

export const SCREENER_FILTERS: ReadonlyMap<string, FilterKind> = new Map<string, FilterKind>([
  ...TEXT_FILTERS.map((name) => [name, 'text'] as const),
  ['fnr', 'fnr'],
  ['active', 'boolean'],
  ['isScheinunternehmen', 'boolean'],
  ...KEY_FIGURES.flatMap((f) => [[`${figureParam(f)}_gte`, 'number'], [`${figureParam(f)}_lte`, 'number']] as const),
  ['orderBy', 'figureName'],
  ['orderByDescending', 'boolean'],
]);

/** Screener parameters that shape one answer, not the query (`fields` picks its columns): never part of a saved filter set. */
export const PAGING_PARAMETERS = new Set(['page', 'pageSize', 'countOnly', 'fields']);

export type FilterValue = string | number | boolean;
export type CanonicalFilters = Record<string, FilterValue>;

// ---------------------------------------------------------------------------------------------------
// What the search backends take

export interface FigureRange {
  figure: KeyFigureDefinition;
  gte?: string;
  lte?: string;
}

/** The backend-neutral form of a screener request. */
export interface ScreenerQuery {
  search?: string;
  fnr?: string;
  city?: string;
  zipCode?: string;
  courtCode?: string;
  legalFormCode?: string;
  /** Resolved ÖNACE EDV code ('C', 'C10', 'C107', 'C1071', 'C10711'): matches its descendants. */
  oenacePath?: string;
  gisaLicenseKey?: string;
  active?: boolean;
  isScheinunternehmen?: boolean;
  ranges: FigureRange[];
  orderBy?: KeyFigureDefinition;
  /** orderBy=name: by the normalised name in byte order, in `descending`'s direction, ties by fnr the same way. */
  orderByName?: boolean;
  descending: boolean;
  page: number;
  pageSize: number;
}
