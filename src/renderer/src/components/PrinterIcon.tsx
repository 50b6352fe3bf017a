// A printer drawn as an SVG in the text's colour: the 🖨 emoji needs an emoji font, and a Debian
// Chromium without one drew an empty box.
export function PrinterIcon({ size = 22 }: { size?: number }) {
  return (
    <svg className="printer-icon" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="M7 3h10v5H7z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M5 8h14a2 2 0 0 1 2 2v6h-4M7 16H3v-6a2 2 0 0 1 2-2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M7 13h10v8H7z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <circle cx="17.5" cy="11" r="1" fill="currentColor" />
    </svg>
  );
}
