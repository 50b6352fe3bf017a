// A free-text note that mentions an allergy must never look like any other note: the kitchen
// shows it like an allergen modifier. The words a cook writes for it, in Spanish and English; a
// restaurant may add its own (the restaurant file's kitchen.allergy_words).

const ALLERGY_WORDS: readonly string[] = [
  'alergia',
  'alergico',
  'alergica',
  'alergeno',
  'sin gluten',
  'celiaco',
  'celiaca',
  'gluten',
  'mani',
  'cacahuate',
  'nueces',
  'nuez',
  'almendra',
  'mariscos',
  'marisco',
  'crustaceo',
  'camaron',
  'lactosa',
  'sin leche',
  'huevo',
  'soya',
  'soja',
  'sesamo',
  'allergy',
  'allergic',
  'gluten free',
  'peanut',
  'shellfish',
  'nut',
];

/** Lower case, accents and other marks off: "ALÉRGICO al Maní" → "alergico al mani". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A word as notes are compared: folded, anything but letters and digits a single space. */
function asWord(word: string): string {
  return fold(word).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

// Folded once: a board checks every note of every ticket it draws (a transition re-checks them), and
// folding the list on each call was 30 ms of a busy board's 692 ms of transition CPU (issue 28).
const BUILT_IN_WORDS: readonly string[] = ALLERGY_WORDS.map(asWord);
const withExtraWords = new WeakMap<readonly string[], readonly string[]>();

function wordsWith(extraWords: readonly string[]): readonly string[] {
  if (extraWords.length === 0) return BUILT_IN_WORDS;
  let words = withExtraWords.get(extraWords);
  if (words === undefined) {
    words = [...BUILT_IN_WORDS, ...extraWords.map(asWord).filter((word) => word !== '')];
    withExtraWords.set(extraWords, words);
  }
  return words;
}

/** Whether the note mentions an allergy: one of the words (or the restaurant's own) as a whole word. */
export function mentionsAllergy(note: string, extraWords: readonly string[] = []): boolean {
  const text = ` ${fold(note).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return wordsWith(extraWords).some((w) => text.includes(` ${w} `) || text.includes(` ${w}s `) || text.includes(` ${w}es `));
}
