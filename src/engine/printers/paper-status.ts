// The answer to DLE EOT 4 (real-time status, roll paper sensor), exactly as the ESC/POS reference
// defines it: one byte, bit 0 fixed 0, bit 1 fixed 1, bits 2–3 paper near end (both 0 or both 1),
// bit 4 fixed 1, bits 5–6 paper end (both 0 or both 1), bit 7 fixed 0. Anything else did not come
// from a printer's paper sensor (a web page, a stream, garbage) and counts for nothing.

/** DLE EOT 4: real-time status, roll paper sensor. */
export const PAPER_STATUS_QUESTION = Uint8Array.of(0x10, 0x04, 0x04);

export type PaperStatus = 'present' | 'near_end' | 'end';

const FIXED_MASK = 0b1001_0011;
const FIXED_BITS = 0b0001_0010;

/** The paper status a byte says, or null when it is not a DLE EOT 4 answer. */
export function parsePaperStatus(byte: number): PaperStatus | null {
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff) return null;
  if ((byte & FIXED_MASK) !== FIXED_BITS) return null;
  const nearEnd = (byte >> 2) & 0b11;
  const end = (byte >> 5) & 0b11;
  if ((nearEnd !== 0 && nearEnd !== 0b11) || (end !== 0 && end !== 0b11)) return null;
  if (end === 0b11) return 'end';
  return nearEnd === 0b11 ? 'near_end' : 'present';
}

/** Bytes as the CLI and the logs show them: "48 54 54 50" (hex), never as text a device chose. */
export function hexBytes(bytes: readonly number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ');
}
