// One definition of JavaScript's \s as a test on a UTF-16 code unit, for the char loops that replace
// `/\s/` regexes (the model's word counts, class splits, linkedom-reads' class spelling).

/** What \s matches in a JavaScript regex. */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
