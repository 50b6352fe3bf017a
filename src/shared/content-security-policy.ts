// The page's Content Security Policy. The same text is in src/renderer/index.html (meta tag, which
// also covers file:// loads), is sent as a header by main to the window and by the engine on
// /kitchen/ to tablets; a test keeps them equal.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "object-src 'none'",
].join('; ');

/**
 * Only under `electron-vite dev`: the dev server needs inline scripts (React refresh), inline
 * styles (injected CSS) and its hot-reload websocket on localhost.
 */
export const DEV_SERVER_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*");
