// English words a Spanish screen must not show: those that slipped in before (issue 28: "Access
// token", "webhooks", "Expo") and the board's own vocabulary in English. Product names (Mercado
// Pago) and the text between braces (a placeholder) are not words of the screen.
export const ENGLISH_WORDS = ['access token', 'token', 'webhook', 'webhooks', 'expo', 'undo', 'ready', 'pickup', 'delivery', 'cancel', 'settings', 'screen', 'loading', 'bump', 'store front', 'rush'];

export function englishIn(text: string): string[] {
  // A plural's two forms (`{count?pedido|pedidos}`, i18n.ts) are words the screen draws: scanned.
  const lower = text.replace(/\{\w+\?([^|{}]*)\|([^{}]*)\}/g, ' $1 $2 ').replace(/\{[^}]*\}/g, ' ').toLowerCase();
  return ENGLISH_WORDS.filter((word) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'u').test(lower));
}
