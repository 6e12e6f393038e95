// A long page of many topics for the passage tests: 20 sections of different subjects, each with a
// few paragraphs, a list and (in some) a table, sharing the page's common filler words.

export interface Topic {
  heading: string;
  words: [string, string, string, string];
}

export const TOPICS: Topic[] = [
  { heading: 'Sourdough baking', words: ['sourdough', 'starter', 'flour', 'proofing'] },
  { heading: 'Volcanoes', words: ['magma', 'eruption', 'volcano', 'lava'] },
  { heading: 'Chess openings', words: ['gambit', 'bishop', 'castling', 'pawn'] },
  { heading: 'Honey bees', words: ['hive', 'pollen', 'queen', 'nectar'] },
  { heading: 'Sailing', words: ['mainsail', 'tack', 'rudder', 'harbour'] },
  { heading: 'Photography', words: ['aperture', 'shutter', 'exposure', 'lens'] },
  { heading: 'Tax returns', words: ['deduction', 'refund', 'taxable', 'invoice'] },
  { heading: 'Marathon training', words: ['mileage', 'tempo', 'hydration', 'sneakers'] },
  { heading: 'Orchids', words: ['orchid', 'repotting', 'humidity', 'bloom'] },
  { heading: 'Databases', words: ['index', 'transaction', 'query', 'schema'] },
  { heading: 'Jazz history', words: ['saxophone', 'bebop', 'improvisation', 'swing'] },
  { heading: 'Roman empire', words: ['legion', 'senate', 'emperor', 'aqueduct'] },
  { heading: 'Coffee roasting', words: ['roast', 'arabica', 'crema', 'grinder'] },
  { heading: 'Glaciers', words: ['glacier', 'moraine', 'crevasse', 'ice'] },
  { heading: 'Knitting', words: ['yarn', 'needle', 'stitch', 'wool'] },
  { heading: 'Electric cars', words: ['battery', 'charging', 'range', 'inverter'] },
  { heading: 'Bird migration', words: ['flock', 'wintering', 'songbird', 'stopover'] },
  { heading: 'Cheese making', words: ['rennet', 'curd', 'whey', 'brine'] },
  { heading: 'Telescopes', words: ['eyepiece', 'mirror', 'nebula', 'magnification'] },
  { heading: 'Tea ceremony', words: ['matcha', 'whisk', 'kettle', 'tatami'] },
];

const FILLER = [
  'Many readers ask about this subject, and the answer depends on the details that follow.',
  'It is worth reading the whole section before trying anything described here at home.',
  'Experts disagree on some points, but the basics below are widely accepted today.',
];

/** The Markdown of section `i`: its heading, paragraphs, a list and every third section a table. */
export function section(t: Topic, i: number): string {
  const [a, b, c, d] = t.words;
  const parts = [
    `## ${t.heading}`,
    `${FILLER[i % 3]} The ${a} matters most when the ${b} is new. ${FILLER[(i + 1) % 3]}`,
    `A good ${c} comes from patience with the ${a}, and a careful look at the ${d} every day. ${FILLER[(i + 2) % 3]}`,
    `- the ${b} first\n- then the ${c}\n- finally the ${d}`,
    `${FILLER[i % 3]} Beginners often forget the ${d} entirely.`,
  ];
  if (i % 3 === 0) parts.push(`| Step | Note |\n| --- | --- |\n| ${a} | watch the ${b} |\n| rest | ${FILLER[0]} |`);
  return parts.join('\n\n');
}

export const TOPICS_PAGE = `# A guide to twenty hobbies\n\n${FILLER[0]}\n\n${TOPICS.map(section).join('\n\n')}\n`;

/** Where section `i` starts and ends in TOPICS_PAGE. */
export function sectionSpan(i: number): [number, number] {
  const start = TOPICS_PAGE.indexOf(`## ${TOPICS[i]!.heading}`);
  const next = TOPICS[i + 1] ? TOPICS_PAGE.indexOf(`## ${TOPICS[i + 1]!.heading}`) : TOPICS_PAGE.length;
  return [start, next];
}
