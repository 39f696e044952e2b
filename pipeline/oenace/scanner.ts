// Finds every lexicon phrase in a clause in one pass (Aho–Corasick): thousands of phrases against a
// short text, where one indexOf per phrase would cost more than the whole rest of the classifier.

export interface Scan {
  text: string;
  /** Phrase id -> start offsets, ascending. */
  positions: Map<number, number[]>;
}

export class PhraseScanner {
  private readonly ids = new Map<string, number>();
  private readonly lengths: number[] = [];
  private next: Array<Map<number, number>> = [new Map()];
  private fail: number[] = [0];
  /** Phrase ids ending at each node, its own and those of its suffix links. */
  private output: number[][] = [[]];
  private built = false;

  /** The id of a phrase, registering it on first sight (before build()). */
  register(phrase: string): number {
    const known = this.ids.get(phrase);
    if (known !== undefined) return known;
    if (this.built) throw new Error('PhraseScanner: register after build');
    const id = this.lengths.length;
    this.ids.set(phrase, id);
    this.lengths.push(phrase.length);
    let node = 0;
    for (let i = 0; i < phrase.length; i++) {
      const c = phrase.charCodeAt(i);
      let child = this.next[node]!.get(c);
      if (child === undefined) {
        child = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.output.push([]);
        this.next[node]!.set(c, child);
      }
      node = child;
    }
    this.output[node]!.push(id);
    return id;
  }

  lengthOf(id: number): number {
    return this.lengths[id]!;
  }

  build(): void {
    const queue: number[] = [];
    for (const child of this.next[0]!.values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [c, child] of this.next[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(c)) f = this.fail[f]!;
        const target = this.next[f]!.get(c);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        this.output[child] = [...this.output[child]!, ...this.output[this.fail[child]!]!];
        queue.push(child);
      }
    }
    this.built = true;
  }

  scan(text: string): Scan {
    const positions = new Map<number, number[]>();
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      while (node !== 0 && !this.next[node]!.has(c)) node = this.fail[node]!;
      node = this.next[node]!.get(c) ?? 0;
      for (const id of this.output[node]!) {
        const at = i + 1 - this.lengths[id]!;
        const list = positions.get(id);
        if (list) list.push(at);
        else positions.set(id, [at]);
      }
    }
    return { text, positions };
  }
}
