// Which senders main answers: only the app's own page, in its own top frame. Plain functions so
// tests check them without Electron.

/** The page the window loads: the dev server's URL, or the built index.html as a file URL. */
export function isTrustedSenderUrl(senderUrl: string | undefined, rendererUrl: string): boolean {
  if (!senderUrl) return false;
  let sender: URL;
  let expected: URL;
  try {
    sender = new URL(senderUrl);
    expected = new URL(rendererUrl);
  } catch {
    return false;
  }
  if (expected.protocol === 'file:') {
    return sender.protocol === 'file:' && sender.pathname === expected.pathname;
  }
  return sender.origin === expected.origin;
}

/** Navigation is allowed only within the app's page (the dev server's hot reload included). */
export function isAllowedNavigation(targetUrl: string, rendererUrl: string): boolean {
  return isTrustedSenderUrl(targetUrl, rendererUrl);
}
