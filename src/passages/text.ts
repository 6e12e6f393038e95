// Character classes the cut and the tokenizer share: whitespace, and the scripts written without
// spaces between words (where a "word" is what Intl.Segmenter says, not a run up to the next space).

/** Whitespace by UTF-16 unit: ASCII controls and space, no-break and the Unicode spaces, line separators. */
export function isSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Scripts written without spaces: Chinese, Japanese, Thai, Lao, Khmer, Burmese (and CJK punctuation). */
export const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;

export const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
export const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
