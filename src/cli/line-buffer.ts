// Bytes of log lines, appended in place into one reused buffer: `websift serve`'s access line is written
// straight into the batch that is written out (buffered-lines.ts), without a string per line nor the batch's
// string (concatenated per line, then measured and encoded again by the destination at each write: two
// passes and ~1 KB of garbage a request, docs/benchmarks.md, "Observability", obsA). Printable ASCII, what a
// line nearly always holds, is copied a character a byte; anything else goes through JSON.stringify and UTF-8.

/** Capacity a new buffer starts with; it grows (rarely: a line longer than what is left) and stays grown. */
const INITIAL_BYTES = 32_768;

export class LineBuffer {
  /** The bytes; valid up to `length`. Replaced when it grows: read it after appending. */
  bytes: Buffer;
  length = 0;

  constructor(capacity = INITIAL_BYTES) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  /** Appends `s`, which must hold only printable ASCII or be meant as Latin-1 bytes (constants, digits, ids checked by the caller). */
  ascii(s: string): void {
    const n = s.length;
    const at = this.length;
    if (at + n > this.bytes.length) this.#grow(n);
    const b = this.bytes;
    for (let i = 0; i < n; i++) b[at + i] = s.charCodeAt(i);
    this.length = at + n;
  }

  /** Appends `s` as JSON.stringify writes it: between quotes as it is when printable ASCII without `"` or `\`, else JSON.stringify's, in UTF-8. */
  json(s: string): void {
    const n = s.length;
    const at = this.length;
    if (at + n + 2 > this.bytes.length) this.#grow(n + 2);
    const b = this.bytes;
    b[at] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.text(JSON.stringify(s)); // from `at`: what was copied is overwritten
        return;
      }
      b[at + 1 + i] = c;
    }
    b[at + 1 + n] = 0x22;
    this.length = at + n + 2;
  }

  /** Appends a whole number ≥ 0 in decimal as String(n) writes it (anything else through String). */
  uint(n: number): void {
    if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n)) {
      this.ascii(String(n));
      return;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    const at = this.length;
    if (at + digits > this.bytes.length) this.#grow(digits);
    const b = this.bytes;
    let rest = n;
    for (let i = at + digits - 1; i >= at; i--) {
      const next = Math.floor(rest / 10);
      b[i] = 0x30 + (rest - next * 10);
      rest = next;
    }
    this.length = at + digits;
  }

  /** Appends any string in UTF-8 (pino's rare lines, escaped JSON). */
  text(s: string): void {
    const most = s.length * 3; // UTF-16 units to UTF-8 bytes, at most
    if (this.length + most > this.bytes.length) this.#grow(most);
    this.length += this.bytes.write(s, this.length, 'utf8');
  }

  /** The bytes appended so far (a view, valid until the next append). */
  view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  /** Forgets what was appended (the bytes stay allocated). */
  clear(): void {
    this.length = 0;
  }

  #grow(more: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + more));
    this.bytes.copy(bigger, 0, 0, this.length);
    this.bytes = bigger;
  }
}
