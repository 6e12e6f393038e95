// Tag and attribute names repeat: a traf page has ~700 tags and ~1,200 attributes but a few dozen
// distinct names. The tree builder sliced (and lower-cased) a fresh string for every one, ~100 KiB a
// page of garbage, and each element and attribute node kept its own copy alive until the page was
// done (copied again by every scavenge in between). A NameTable hands out one string per distinct
// name, read off the page's text in place (hashed, then compared character by character).
//
// Bounded for any input: only short ASCII names are kept, a name's slot is looked for a few steps at
// most (colliding names are sliced as before), and a full table starts over.

/** Longer names are sliced as before (names this long are rare, and seldom repeat). */
const MAX_LENGTH = 32;
/** Slots (a power of two); the table starts over when half are taken. */
const CAPACITY = 2048;
const MAX_PROBES = 8;
const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

export class NameTable {
  private readonly names: string[] = new Array<string>(CAPACITY).fill('');
  private readonly hashes = new Int32Array(CAPACITY);
  private count = 0;

  /** `lower`: names are lower-cased (tag names), otherwise kept as written (attribute names). */
  constructor(private readonly lower: boolean) {}

  /** `source.slice(start, end)` (lower-cased when the table is), the same string for the same name. */
  read(source: string, start: number, end: number): string {
    const length = end - start;
    if (length <= 0 || length > MAX_LENGTH) return this.sliced(source, start, end);
    const lower = this.lower;
    let h = FNV_BASIS;
    for (let i = start; i < end; i++) {
      let c = source.charCodeAt(i);
      if (c > 127) return this.sliced(source, start, end);
      if (lower && c >= 65 && c <= 90) c += 32;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    const names = this.names;
    const mask = CAPACITY - 1;
    let at = h & mask;
    for (let probe = 0; probe < MAX_PROBES; probe++, at = (at + 1) & mask) {
      const name = names[at]!;
      if (name === '') return this.add(at, h, source, start, end);
      if (this.hashes[at] === h && name.length === length && this.same(name, source, start)) return name;
    }
    return this.sliced(source, start, end);
  }

  /** Whether `name` is the (lower-cased) text at `start`, `name.length` characters. */
  private same(name: string, source: string, start: number): boolean {
    const lower = this.lower;
    for (let i = 0; i < name.length; i++) {
      let c = source.charCodeAt(start + i);
      if (lower && c >= 65 && c <= 90) c += 32;
      if (c !== name.charCodeAt(i)) return false;
    }
    return true;
  }

  private sliced(source: string, start: number, end: number): string {
    const name = source.slice(start, end);
    return this.lower ? name.toLowerCase() : name;
  }

  /**
   * The name, kept in slot `at`. Built from its character codes: a slice of 13 characters or more
   * would be a view of the page's whole text, and keep it alive as long as the table.
   */
  private add(at: number, h: number, source: string, start: number, end: number): string {
    const codes: number[] = [];
    for (let i = start; i < end; i++) {
      const c = source.charCodeAt(i);
      codes.push(this.lower && c >= 65 && c <= 90 ? c + 32 : c);
    }
    const name = String.fromCharCode(...codes);
    if (this.count >= CAPACITY / 2) {
      this.names.fill('');
      this.hashes.fill(0);
      this.count = 0;
      at = h & (CAPACITY - 1);
    }
    this.names[at] = name;
    this.hashes[at] = h;
    this.count++;
    return name;
  }
}
