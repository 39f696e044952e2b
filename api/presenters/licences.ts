// The licence record (api-decisions.md "Licence record"), presented in one place for /trades/{tradeKey}/licenses,
// /trades/company/{fnr}, the profile's tradeLicenses and the person profile. The SQL reads one
// licence as a JSON object of its columns (the same in a list and inside a profile's json_agg), this
// module shapes it.
import type { Sql } from '../../runtime/db.js';

/** One licence's columns as json_build_object returns them (dates as yyyy-mm-dd). */
export interface LicenceRow {
  gisaZahl: string;
  fnr: string | null;
  tradeKey: string | null;
  wording: string | null;
  kind: string | null;
  authorityCode: string | null;
  authorityText: string | null;
  effectiveFrom: string | null;
  endedOn: string | null;
  isDormant: boolean;
  dormantFrom: string | null;
  dormantUntil: string | null;
  holderType: 'legal' | 'natural';
  holderName: string | null;
  street: string | null;
  zipCode: string | null;
  city: string | null;
  managerName: string | null;
  /** Only when the register names that person (name and birth date match a register person). */
  managerPersonId: string | null;
}

/**
 * The licence `t` (trade_license) as a JSON object; the kind comes from the catalogue row `tr` the
 * caller joins (LICENCE_FROM: a join once per query, where a subselect per row was a scan per row of
 * the small catalogue), the manager's personId only where a register person has it.
 */
export function licenceJson(sql: Sql) {
  return sql`json_build_object(
    'gisaZahl', t.gisa_zahl, 'fnr', t.fnr, 'tradeKey', t.trade_key, 'wording', t.wording,
    'kind', tr.kind,
    'authorityCode', t.authority_code, 'authorityText', t.authority_name, 'effectiveFrom', t.effective_from, 'endedOn', t.ended_on,
    'isDormant', t.is_dormant, 'dormantFrom', t.dormant_from, 'dormantUntil', t.dormant_until, 'holderType', t.holder_kind,
    'holderName', t.holder_name, 'street', t.street, 'zipCode', t.zip_code, 'city', t.city, 'managerName', t.manager_name,
    'managerPersonId', (SELECT p.person_id FROM person p WHERE p.person_id = t.manager_person_id))`;
}

/** The catalogue row licenceJson reads the kind from. */
export const LICENCE_CATALOGUE_JOIN = 'LEFT JOIN trade tr ON tr.trade_key = t.trade_key';

/** Current licences first, then the most recently effective. */
export const LICENCE_ORDER = 't.ended_on IS NULL DESC, t.effective_from DESC NULLS LAST, t.gisa_zahl';

export function presentLicence(l: LicenceRow) {
  return {
    gisaZahl: l.gisaZahl,
    fnr: l.fnr,
    tradeKey: l.tradeKey,
    wording: l.wording,
    kind: l.kind,
    authority: { code: l.authorityCode, text: l.authorityText },
    effectiveFrom: l.effectiveFrom,
    endedOn: l.endedOn,
    // Dormant licences are still held: only an end date ends one.
    isActive: l.endedOn === null,
    isDormant: l.isDormant,
    dormantFrom: l.dormantFrom,
    dormantUntil: l.dormantUntil,
    holder: { type: l.holderType, name: l.holderName, fnr: l.fnr },
    location: { street: l.street, zipCode: l.zipCode, city: l.city },
    manager: l.managerName ? { name: l.managerName, personId: l.managerPersonId } : null,
  };
}
