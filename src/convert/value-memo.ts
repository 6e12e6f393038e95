// Attribute values (class, id) repeat across a page's elements and from page to page: what a pass
// derives from one is computed once per distinct value. Bounded: past MAX_VALUES distinct values the
// memo starts over (a page of generated class names must not grow it without end).

const MAX_VALUES = 4096;

/** `compute`, remembered per value (its results must not be undefined). */
export function memoByValue<T>(compute: (value: string) => T): (value: string) => T {
  const memo = new Map<string, T>();
  return (value) => {
    let out = memo.get(value);
    if (out === undefined) {
      out = compute(value);
      if (memo.size >= MAX_VALUES) memo.clear();
      memo.set(value, out);
    }
    return out;
  };
}
