// What the BMF adapter (pipeline/bmf) reads from the finance ministry's list of bogus companies
// (Liste der Scheinunternehmen, § 8 SBBG), as types: the parser produces them, the store, the fake
// upstream and the tests consume them.

/**
 * Data-quality findings on a row (the list is kept by hand). The value the finding is about is
 * repaired where the repair is certain (a swapped column, an upper-case check letter) and kept as given otherwise.
 */
export const LSU_WARNINGS = [
  'uid-kennziffer-swapped', // UID and UR-Kennziffer each in the other's column (or one moved over)
  'fnr-kennziffer-swapped', // a Kennziffer in the Firmenbuch column and the FN in the Kennziffer column
  'fnr-in-kennziffer', // the FN typed into the Kennziffer column (moved, or a duplicate cleared)
  'kennziffer-duplicates-uid', // the UID typed again into the Kennziffer column (cleared)
  'fnr-upper-case-letter', // `436634I`
  'fnr-prefixed', // `FN 12345 x`
  'fnr-check-letter', // the check letter does not fit the digits: the FN links nothing
  'fnr-unreadable', // the Firmenbuch column holds something that is no FN (kept out of fnr)
  'foreign-vat', // a non-Austrian VAT number as UID (moved over from the Kennziffer column when found there)
  'uid-unreadable', // neither ATU + 8 digits nor a foreign VAT number
  'uid-check-digit', // ATU number whose check digit does not fit
  'kennziffer-unreadable', // not R + 3 digits + letter + 3-4 digits (+ check character)
  'published-on-unreadable',
  'decision-final-on-unreadable',
  'deemed-since-unreadable',
  'birth-date-unreadable',
  'address-without-zip', // Anschrift without a leading Austrian zip code (abroad, or unreadable)
  'duplicate-row', // a second row of the same listing and publication date
] as const;
export type LsuWarning = (typeof LSU_WARNINGS)[number];

/** One row of the list as the parser reads it. */
export interface LsuRow {
  /** Line number in the file (the header is line 1). */
  line: number;
  /** `natural`: a person (the row gives a birth date); `legal`: a company. */
  kind: 'legal' | 'natural';
  name: string;
  /** Anschrift as given ("PLZ Ort, Straße Nr") and its parts. */
  address: string | null;
  zipCode: string | null;
  city: string | null;
  street: string | null;
  /** Veröffentlichung, Rechtskraft Bescheid, Zeitpunkt als Scheinunternehmen, Geburts-Datum: ISO dates. */
  publishedOn: string | null;
  decisionFinalOn: string | null;
  deemedSince: string | null;
  birthDate: string | null;
  /** The normalised FN found in the row (Firmenbuch column, else the Kennziffer column). */
  fnr: string | null;
  /** False: the check letter does not fit (warning `fnr-check-letter`); null without an FN. */
  fnrCheckLetterValid: boolean | null;
  uid: string | null;
  /** Kennziffer des Unternehmensregisters. */
  urCode: string | null;
  warnings: LsuWarning[];
}

/** A whole list: its version (the `Stand:` footer) and its rows in file order. */
export interface LsuList {
  /** `Stand: DD.MM.YYYY HH:MM:SS` as `YYYY-MM-DDTHH:MM:SS` (Vienna local time, as printed): ordered as text. */
  version: string;
  rows: LsuRow[];
}

/** A publication (Kundmachung) behind a listing: one row of the list. */
export interface LsuPublication {
  publishedOn: string;
  decisionFinalOn: string | null;
  deemedSince: string | null;
}

/** A company or person on the list: the rows of one key, with their publications. */
export interface BogusListing {
  /** `fn:<fnr>`, else `uid:<uid>`, else `name:<name>|<address>|<decision date>` (normalised). */
  listingKey: string;
  kind: 'legal' | 'natural';
  name: string;
  address: string | null;
  zipCode: string | null;
  street: string | null;
  fnr: string | null;
  fnrCheckLetterValid: boolean | null;
  uid: string | null;
  urCode: string | null;
  birthDate: string | null;
  warnings: LsuWarning[];
  /** Oldest first; rows without a readable publication date add none. */
  publications: LsuPublication[];
}
