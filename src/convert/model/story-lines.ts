// Lines that are nobody's content on any page but a thread: "read also" pointers, comment-form and
// rating lines, lone photo credits, calls to subscribe or donate. Phrase lists in several languages,
// applied only to short lines (or lines whose rest is links).

import type { BlockRows } from './block-features.js';
import { countWords } from './text-stats.js';

/** A line that sends the reader to other stories ("Read also:", "Mehr zum Thema", "Czytaj też"). */
const READ_ALSO = new RegExp(
  '^[\\s"“„«]*(' +
    [
      String.raw`read (also|more|next)|also read|see also|related( (stories|articles|posts|content|reading|coverage))?|more (on|about) this|more from|recommended( (stories|articles|reading))?|you (might|may) also like|most (read|popular)`,
      String.raw`lesen sie (auch|hier|mehr)|lesenswert|mehr (zum thema|zu[mr]? |aus |dazu)|zum weiterlesen|weiterlesen|schon gelesen|das (thema )?könnte (dich|sie) auch interessieren|auch interessant|auch auf |weitere (artikel|beiträge|nachrichten|meldungen|infos|informationen)|weiterführende (informationen|links|artikel)|ähnliche (artikel|beiträge|nachrichten)|beliebte (artikel|beiträge)|aktuelle berichte|meistgelesen|empfehlungen|lust auf mehr`,
      String.raw`à lire aussi|a lire aussi|lire aussi|voir aussi|sur le même sujet|articles les plus lus|les plus lus`,
      String.raw`le puede interesar|te puede interesar|puedes ver|vea también|lee también|lea también|leer más|notas relacionadas|noticias relacionadas|leia também|leggi anche|czytaj (też|także|więcej|również)|zobacz (też|także|również)|dowiedz się więcej|polecamy|mire:`,
    ].join('|') +
    ')',
  'i',
);
/** A short line about the comment form or a rating widget: "Leave a comment", "Kommentare geschlossen". */
const COMMENT_LINE = new RegExp(
  '^[\\s(]*(' +
    [
      String.raw`(leave|post|write|add) a (reply|comment)|comments? (are )?closed|no comments( yet)?|comment by|be the first to comment|rate this|(noch )?keine (kommentare|bewertungen)|bisher keine kommentare`,
      String.raw`kommentar(e)? (schreiben|verfassen|geschlossen)|kommentieren|bewerten:|wie bewerten sie|laisser un commentaire|deja un comentario|dodaj komentarz`,
    ].join('|') +
    ')',
  'i',
);
/** A photo credit alone on its line ("Foto: …", "Crédits photos : …"): the picture's, not the story's. */
const CREDIT_LINE = /^[\s(]*(fotos?|photos?|bild|kuva|cr[ée]dits?( photos?)?|credit|image|imagen|zdj[eę]cie|fot\.)\s*[:©]/i;
/** A call to subscribe, follow, donate or come back ("Subscribe now to our …", "Unterstütze …"). */
const PROMO_LINE = new RegExp(
  '^[\\s"“„«¿¡]*(' +
    [
      String.raw`subscribe (now|today|to)|to (view|read) the full (story|article)|first-time subscribers|for the latest (stories|news|updates)|follow (us|the \S+|[\w.]+) on (twitter|facebook|instagram)|if you (enjoyed|liked) (reading )?this|sign up (now |today )?for our|support (us|our journalism)`,
      String.raw`unterstütze|unterstützen sie (uns|unsere)|jede (kleine )?spende|gefällt (dir|ihnen) unser|besuchen sie unseren|abonniere|abonnieren sie|ya sabías que|suscríbete|abonnez-vous|soutenez`,
    ].join('|') +
    ')',
  'i',
);
/** A promotion line is at most this long (a paragraph that starts alike is left to the model). */
const PROMO_WORDS = 30;
/** Control and credit lines are this short. */
const CONTROL_WORDS = 6;

/** A read-also line is short, or the rest of it is links (the stories it points to). */
const READ_ALSO_WORDS = 8;

/**
 * Lines that point to other stories, inside or beside the story ("LE PUEDE INTERESAR: …",
 * "Zum Weiterlesen:", a "Weitere Artikel" heading): dropped when short or mostly links.
 */
export function dropReadAlso(rows: BlockRows, kept: Set<number>): void {
  for (const b of rows.blocks) {
    if (!kept.has(b.id)) continue;
    if (
      (b.tokens <= CONTROL_WORDS && (COMMENT_LINE.test(b.text) || CREDIT_LINE.test(b.text))) ||
      (b.tokens <= PROMO_WORDS && PROMO_LINE.test(b.text))
    ) {
      kept.delete(b.id);
      continue;
    }
    const m = READ_ALSO.exec(b.text);
    if (!m) continue;
    const short = b.tokens <= READ_ALSO_WORDS;
    const rest = countWords(b.text.slice(m[0].length), true);
    if (short || b.linkTokens >= 0.5 * rest) kept.delete(b.id);
  }
}
