// A long page of many topics (one section each, a vocabulary of its own) for query passages, and the
// helpers that read a part's marker the way an agent does.

import { expect } from 'vitest';

const TOPICS: [string, string][] = [
  ['Volcanoes', 'Magma rises through the crust and erupts as lava, ash and volcanic gas; a caldera forms when the magma chamber empties.'],
  ['Violins', 'A violin has four strings tuned in fifths; the bow is strung with horsehair and rosin makes it grip the strings.'],
  ['Sourdough', 'A sourdough starter is flour and water fermented by wild yeast and lactobacilli; bakers feed it before mixing the dough.'],
  ['Glaciers', 'Glaciers are rivers of ice that carve valleys into a U shape and leave moraines of rock where the ice melts.'],
  ['Chess openings', 'The Sicilian Defence answers the king pawn opening; castling early protects the king and connects the rooks.'],
  ['Honeybees', 'Worker bees gather nectar and pollen, and a waggle dance tells the hive where the flowers are.'],
  ['Tides', 'The moon pulls the oceans into bulges, so most coasts see two high tides and two low tides each day.'],
  ['Compilers', 'A compiler parses source code into a syntax tree, checks types and emits machine code through an optimizer.'],
  ['Coffee roasting', 'Green coffee beans turn brown in the roaster as sugars caramelize; the first crack marks a light roast.'],
  ['Origami', 'Origami folds a single square of paper into a crane or a frog without cutting or glue.'],
  [
    'Solar panels',
    'Photovoltaic cells turn sunlight into direct current, and an inverter converts it into alternating current for the grid.',
  ],
  ['Penguins', 'Emperor penguins huddle through the Antarctic winter while the males balance an egg on their feet.'],
  ['Cheese making', 'Rennet curdles the milk, the curds are cut and pressed, and the wheels age in a cellar to form a rind.'],
  ['Lighthouses', 'A lighthouse lens of Fresnel prisms throws the lamp beam far out to sea to warn ships of the rocks.'],
  ['Bicycle gears', 'The derailleur moves the chain between sprockets so a cyclist can keep pedalling at the same cadence uphill.'],
  ['Tea ceremony', 'In the Japanese tea ceremony the host whisks powdered matcha in a bowl and serves it to the guests.'],
  ['Earthquakes', 'Tectonic plates slip along a fault and seismographs record the waves; the epicentre lies above the focus.'],
  ['Knitting', 'Knitting loops yarn on two needles; purl and knit stitches together make ribbing for cuffs.'],
  ['Orchids', 'Orchids grow as epiphytes on tree bark and their roots absorb moisture from the humid air.'],
  ['Typography', 'A serif typeface has small strokes at the ends of letters, and kerning adjusts the space between pairs.'],
];

/** A section's distinctive first sentence fragment, to find it in a part. */
export const topicText = (title: string): string => {
  const topic = TOPICS.find(([t]) => t === title);
  if (!topic) throw new Error(`no topic ${title}`);
  return topic[1].split(';')[0]!.split(',')[0]!;
};

/** The page: an article of 20 sections, each a heading and three paragraphs. */
export const topicsPage = `<!doctype html><html><head><title>An almanac of many things</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>An almanac of many things</h1>
${TOPICS.map(
  ([title, text], i) => `<section><h2>${title}</h2>
<p>${text}</p>
<p>Section ${i + 1} goes on with general remarks that every section shares, so that the words common to all of them carry little weight in the ranking of passages.</p>
<p>More remarks of the same kind follow here, written to make the page long enough that a whole section does not fit in a small budget of characters.</p></section>`,
).join('\n')}
</article></main><footer>Footer text</footer></body></html>`;

/** Characters a marker line may take (the issue's "short marker"): ample for any wording. */
export const MARKER_ROOM = 160;

/** Where a cut piece says to read on (`start_char=N`, as an agent reads it), or undefined when it names none. */
export function nextStartOf(text: string): number | undefined {
  const m = /start_char\s*=\s*(\d[\d,]*)/u.exec(text.slice(-MARKER_ROOM));
  return m ? Number(m[1]!.replace(/,/gu, '')) : undefined;
}

/**
 * The content of a piece read from `start` of `full`: the piece is exactly full.slice(start, next)
 * followed by a short marker; returns that slice (the whole rest when no marker names a next start).
 */
export function pieceOf(text: string, full: string, start: number): string {
  const next = nextStartOf(text);
  if (next === undefined) {
    expect(text).toBe(full.slice(start));
    return text;
  }
  expect(next).toBeGreaterThan(start);
  const piece = full.slice(start, next);
  expect(text.startsWith(piece)).toBe(true);
  expect(text.length - piece.length).toBeLessThanOrEqual(MARKER_ROOM);
  return piece;
}

/**
 * The content characters of query passages: the text without its skip-marker lines (a marker line like
 * `[…]` carries no letter or digit; content blocks here all do).
 */
export function passagesContentLength(text: string): number {
  return text
    .split('\n\n')
    .filter((block) => /[\p{L}\p{N}]/u.test(block))
    .join('\n\n').length;
}
