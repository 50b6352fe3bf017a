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

/** Whether the note mentions an allergy: one of the words (or the restaurant's own) as a whole word. */
export function mentionsAllergy(note: string, extraWords: readonly string[] = []): boolean {
  const text = ` ${fold(note).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return [...ALLERGY_WORDS, ...extraWords].some((word) => {
    const w = fold(word).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    return w !== '' && (text.includes(` ${w} `) || text.includes(` ${w}s `) || text.includes(` ${w}es `));
  });
}
