// Keeps API keys out of logs and error bodies, however a client spelled them: a key can arrive
// percent-encoded once or several times (`c%6D_live_`, `cm%255Flive`), with its underscores
// written as `+`, a space or `%20`, in any letter case, in a path segment, a query value or a
// header value. The text is decoded repeatedly, keeping for each decoded character the span of
// the original it came from, so the key is found in the decoded text and masked in the original.
// Before matching, each decoded character is normalised (NFKC: a fullwidth `＿` is `_`) and format
// and control characters (zero-width spaces, NUL, line breaks) are skipped, so copy-paste debris
// inside or around a key hides nothing. The other secrets of the engine go the same way: the
// one-time admin token (`cmadm_…`), a pairing URL's secret (`cmpair_…`), pairing codes and
// secrets as query values, and a device token in its cookie.

/** A secret in decoded, normalised text, and what it is masked with. */
const SECRETS_IN_DECODED: { pattern: RegExp; mask(match: RegExpExecArray): string }[] = [
  // An API key: `cm`, its mode and a 32-character secret, with underscores or anything a URL turns them into.
  { pattern: /cm[\s_+-]{1,3}(live|test)[\s_+-]{1,3}[0-9a-z]{8,32}/gi, mask: (m) => `cm_${m[1]!.toLowerCase()}_[redacted]` },
  // The admin link's one-time token and a pairing URL's secret.
  { pattern: /cm(adm|pair)[\s_+-]{1,3}(?!\[redacted\])[0-9a-z_-]{8,}/gi, mask: (m) => `cm${m[1]!.toLowerCase()}_[redacted]` },
  // Pairing codes and secrets as query values (`?code=123456`, `&secret=…`; `?token=` is the admin link's, admin-session.ts).
  { pattern: /([?&;])(code|secret)=(?!\[redacted\])[^&#\s]+/gi, mask: (m) => `${m[1]}${m[2]!.toLowerCase()}=[redacted]` },
  // A paired screen's device token, in a cookie header quoted in some message.
  { pattern: /comanda_(device|admin)=(?!\[redacted\])[0-9a-z_-]+/gi, mask: (m) => `comanda_${m[1]!.toLowerCase()}=[redacted]` },
];
/** Cheap first look: without `cm`, a secret's name, an escape, a control or a non-ASCII character, a text holds no secret. */
const MIGHT_HOLD_KEY = /cm|code=|secret=|comanda_|[%\\\x00-\x1f\x7f]|[^\x00-\x7f]/i;
/** Skipped before matching: format (Cf: zero-width spaces, BOM, bidi marks) and control (Cc: NUL, line breaks) characters. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;
/** Enough for any nesting of encodings a client or a proxy produces (`%25255F` is three). */
const MAX_DECODE_ROUNDS = 8;

interface Piece {
  char: string;
  /** The original text's [start, end) this character was decoded from. */
  start: number;
  end: number;
}

const HEX2 = /^[0-9a-f]{2}$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const HEX4 = /^[0-9a-f]{4}$/i;

const textOf = (pieces: Piece[], from: number, count: number): string =>
  pieces
    .slice(from, from + count)
    .map((p) => p.char)
    .join('');

/** The character a percent-encoded UTF-8 sequence starting at `i` (lead byte `lead`) stands for, and its width in pieces. */
function utf8Sequence(pieces: Piece[], i: number, lead: number): { char: string; width: number } | null {
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0) return null;
  const bytes = [lead];
  for (let k = 1; k < length; k++) {
    const at = i + 3 * k;
    if (pieces[at]?.char !== '%' || !HEX2.test(textOf(pieces, at + 1, 2))) return null;
    const byte = parseInt(textOf(pieces, at + 1, 2), 16);
    if (byte < 0x80 || byte > 0xbf) return null;
    bytes.push(byte);
  }
  try {
    return { char: UTF8.decode(Uint8Array.from(bytes)), width: 3 * length };
  } catch {
    return null;
  }
}

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
      // A UTF-8 sequence (`%E2%80%8B`, a zero-width space) decodes to its one character.
      const utf8 = utf8Sequence(pieces, i, code);
      if (utf8) {
        out.push({ char: utf8.char, start: piece.start, end: pieces[i + utf8.width - 1]!.end });
        i += utf8.width - 1;
        changed = true;
        continue;
      }
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

/** A decoded character as matching sees it: NFKC-normalised, with format and control characters gone (''). */
function normalised(char: string): string {
  const plain = char.length === 1 && char >= ' ' && char <= '~' ? char : char.normalize('NFKC').replace(INVISIBLE, '');
  return plain;
}

/**
 * The text with every API key in it, in any spelling, replaced by `cm_live_[redacted]` (or test),
 * and the engine's other secrets (admin and pairing tokens, pairing codes, device tokens) masked.
 */
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
  const spans: { start: number; end: number; mask: string }[] = [];
  const collect = () => {
    // Invisible characters drop out of the matched text; their spans fall inside a match's span.
    const visible: { piece: Piece; char: string }[] = [];
    for (const piece of pieces) {
      const char = normalised(piece.char);
      if (char !== '') visible.push({ piece, char: char.length === 1 ? char : '\u0000' });
    }
    const decoded = visible.map((v) => v.char).join('');
    for (const { pattern, mask } of SECRETS_IN_DECODED) {
      for (const match of decoded.matchAll(pattern)) {
        const first = visible[match.index]!.piece;
        const last = visible[match.index + match[0].length - 1]!.piece;
        spans.push({ start: first.start, end: last.end, mask: mask(match as RegExpExecArray) });
      }
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
    if (span.start >= at) result += span.mask;
    at = span.end;
  }
  return result + text.slice(at);
}
