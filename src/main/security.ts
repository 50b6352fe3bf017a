// Electron hardening of the app's one window and its session.
import { shell, type Session, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.ts';
import { isAllowedNavigation } from './ipc-guard.ts';

/** The permissions the kitchen screen uses: writing a new API key to the clipboard. Nothing else. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function hardenSession(session: Session, devServerUrl: string | undefined): void {
  const policy = devServerUrl ? DEV_SERVER_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}

/** No navigation away from the app, no new windows; http(s) links open in the system browser. */
export function guardNavigation(contents: WebContents, rendererUrl: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
