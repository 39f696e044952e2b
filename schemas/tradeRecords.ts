// Trade-register (GISA) records as the parser returns them (pipeline/gisa/gewerbeParser.ts) and the
// store keeps them (trade_license.record); the API's licence record is presented from the columns.

export interface TradeAddress {
  street: string | null;
  zipCode: string | null;
  city: string | null;
}

/** A Standort: where the licence is exercised, from when until when (history entries end). */
export interface TradeLocation extends TradeAddress {
  effectiveFrom: string | null;
  endedOn: string | null;
}

/** A Berechtigung as it was: the current one is the licence's own fields, older ones are history. */
export interface TradeEntitlement {
  tradeKey: string | null;
  wording: string | null;
  effectiveFrom: string | null;
  endedOn: string | null;
}

export interface TradeHolder {
  type: 'legal' | 'natural';
  /** Firmenname, or "Vorname Familienname" of a natural person. */
  name: string;
  /** Canonical fnr: a legal person's FBNummer, or a sole trader's registered firm (FirmaListe). */
  fnr: string | null;
  /** Natural person: `firstname-lastname-birthdate` (null without a birth date: never linked). */
  personId: string | null;
  firstName: string | null;
  lastName: string | null;
  birthDate: string | null;
}

export interface TradeManager {
  name: string;
  /** personId from name and birth date; the API shows it only when the register names that person. */
  personId: string | null;
}

/** One trade licence (GISA `Gewerbe`). Dates are yyyy-mm-dd. */
export interface TradeLicence {
  gisaZahl: string;
  tradeKey: string | null;
  wording: string | null;
  authority: { code: string | null; text: string | null };
  effectiveFrom: string | null;
  /** EndigungDatum: present = the licence ended. */
  endedOn: string | null;
  isIndustrial: boolean | null;
  isDormant: boolean;
  dormantFrom: string | null;
  dormantUntil: string | null;
  holder: TradeHolder;
  location: TradeLocation | null;
  /** Former locations, newest first. */
  locationHistory: TradeLocation[];
  /** Former entitlements (wording or key changed), newest first. */
  history: TradeEntitlement[];
  manager: TradeManager | null;
  /** Data-quality notes (an FBNummer whose check letter fails, ...): kept, never silently fixed. */
  warnings: string[];
}

/** A hit of SearchPersonJur / SearchPersonNat: the hit list's summary of one licence. */
export interface TradeLicenceHit {
  gisaZahl: string;
  tradeKey: string | null;
  endedOn: string | null;
  holderFnr: string | null;
  /** A natural holder as the hit names them (name and birth date, where the hit carries them). */
  holderPerson: { firstName: string | null; lastName: string | null; birthDate: string | null } | null;
}

export interface TradeCatalogueEntry {
  tradeKey: string;
  name: string;
  kindCode: string | null;
  isHistorical: boolean;
}

export interface TradeKind {
  code: string;
  name: string;
  isHistorical: boolean;
}
