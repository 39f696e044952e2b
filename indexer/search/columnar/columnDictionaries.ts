// The screener columns' dictionaries: attribute values (city, zip code, court, legal form) and value
// sets (ÖNACE paths, trade keys) interned to small integers, so a filter is an integer test per row.

/** Interns strings to small integers; 0 stands for null. */
export class Dictionary {
  private readonly ids = new Map<string, number>();
  intern(value: string | null): number {
    if (value === null) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(value, id);
    }
    return id;
  }
  /** The id of a value, or -1 when no row ever had it (then nothing can match). */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }
}

/** Joins a set's members in the loader's text form (no EDV code or trade key contains it). */
export const SET_SEPARATOR = '\u001f';

/** Interns string sets (ÖNACE paths, trade keys): most companies share one of a few thousand sets. */
export class SetDictionary {
  private readonly ids = new Map<string, number>();
  /** How many distinct sets (ids 0..size-1); the sets themselves live on only in the postings. */
  private size = 0;
  /**
   * Member -> ids of the sets holding it. A full register has so many distinct ÖNACE path sets that
   * testing each for a member was slow; the postings answer at once.
   */
  private readonly postings = new Map<string, number[]>();
  intern(set: string[] | string): number {
    // Most companies have no set or a single member: their key is no new string.
    const key = typeof set === 'string' ? set : set.length <= 1 ? (set[0] ?? '') : [...set].sort().join(SET_SEPARATOR);
    let id = this.ids.get(key);
    if (id === undefined) {
      const values = typeof set === 'string' ? (set === '' ? [] : set.split(SET_SEPARATOR)) : set;
      id = this.size++;
      this.ids.set(key, id);
      for (const value of new Set(values)) {
        const holders = this.postings.get(value);
        if (holders) holders.push(id);
        else this.postings.set(value, [id]);
      }
    }
    return id;
  }
  /** Which set ids hold `value`. */
  containing(value: string): Uint8Array {
    const mask = new Uint8Array(this.size);
    for (const id of this.postings.get(value) ?? []) mask[id] = 1;
    return mask;
  }
}
