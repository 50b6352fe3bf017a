// Keeps API keys out of logs and error bodies, however a client spelled them: a key can arrive
// percent-encoded once or several times (`c%6D_live_`, `cm%255Flive`), with its underscores
// written as `+`, a space or `%20`, in any letter case, in a path segment, a query value or a
// header value. The text is decoded repeatedly, keeping for each decoded character the span of
// the original it came from, so the key is found in the decoded text and masked in the original.

/** A key in decoded text: `cm`, its mode and a secret, with underscores or anything a URL turns them into. */
const KEY_IN_DECODED = /cm[\s_+-]{1,3}(live|test)[\s_+-]{1,3}[0-9a-z]{8,}/gi;
/** Cheap first look: without `cm` in clear and without any escape, a text holds no key. */
const MIGHT_HOLD_KEY = /cm|[%\\]/i;
/** Enough for any nesting of encodings a client or a proxy produces (`%25255F` is three). */
const MAX_DECODE_ROUNDS = 8;

interface Piece {
  char: string;
  /** The original text's [start, end) this character was decoded from. */
  start: number;
  end: number;
}

const HEX2 = /^[0-9a-f]{2}$/i;
const HEX4 = /^[0-9a-f]{4}$/i;

const textOf = (pieces: Piece[], from: number, count: number): string =>
  pieces
    .slice(from, from + count)
    .map((p) => p.char)
    .join('');

/**
 * One round of decoding: `%XX`, `%uXXXX`, `\uXXXX` and `\xXX`. Returns null when nothing decoded.
 * The pieces of a decoded escape merge into one, so nested encodings decode round after round.
 */
function decodeOnce(pieces: Piece[]): Piece[] | null {
  const out: Piece[] = [];
  let changed = false;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const next = pieces[i + 1]?.char;
    let width = 0;
    let code = -1;
    if (piece.char === '%' && (next === 'u' || next === 'U') && HEX4.test(textOf(pieces, i + 2, 4))) {
      width = 6;
      code = parseInt(textOf(pieces, i + 2, 4), 16);
    } else if (piece.char === '%' && HEX2.test(textOf(pieces, i + 1, 2))) {
      width = 3;
      code = parseInt(textOf(pieces, i + 1, 2), 16);
    } else if (piece.char === '\\' && next === 'u' && HEX4.test(textOf(pieces, i + 2, 4))) {
      width = 6;
      code = parseInt(textOf(pieces, i + 2, 4), 16);
    } else if (piece.char === '\\' && next === 'x' && HEX2.test(textOf(pieces, i + 2, 2))) {
      width = 4;
      code = parseInt(textOf(pieces, i + 2, 2), 16);
    }
    if (width === 0) {
      out.push(piece);
      continue;
    }
    out.push({ char: String.fromCharCode(code), start: piece.start, end: pieces[i + width - 1]!.end });
    i += width - 1;
    changed = true;
  }
  return changed ? out : null;
}

/** The text with every API key in it, in any spelling, replaced by `cm_live_[redacted]` (or test). */
export function redactApiKeys(text: string): string {
  if (!MIGHT_HOLD_KEY.test(text)) return text;
  let pieces: Piece[] = Array.from(text, (char, index) => ({ char, start: index, end: index + 1 }));
  // Array.from splits by code point; keep the spans in UTF-16 units, as String indexes are.
  let offset = 0;
  for (const piece of pieces) {
    piece.start = offset;
    offset += piece.char.length;
    piece.end = offset;
  }
  const spans: { start: number; end: number; mode: string }[] = [];
  const collect = () => {
    const decoded = pieces.map((p) => (p.char.length === 1 ? p.char : '\u0000')).join('');
    for (const match of decoded.matchAll(KEY_IN_DECODED)) {
      const first = pieces[match.index]!;
      const last = pieces[match.index + match[0].length - 1]!;
      spans.push({ start: first.start, end: last.end, mode: match[1]!.toLowerCase() });
    }
  };
  collect();
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const decoded = decodeOnce(pieces);
    if (!decoded) break;
    pieces = decoded;
    collect();
  }
  if (spans.length === 0) return text;
  // Overlapping finds (the same key seen at several rounds) merge into one masked span.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let result = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    result += text.slice(at, Math.max(at, span.start));
    if (span.start >= at) result += `cm_${span.mode}_[redacted]`;
    at = span.end;
  }
  return result + text.slice(at);
}

/** Whether a text holds an API key in any spelling. */
export function holdsApiKey(text: string): boolean {
  return redactApiKeys(text) !== text;
}
