// The sandbox payment simulator's HTML: Spanish, mobile first, no JavaScript (plain form POST).
// Everything shown that comes from data is escaped.
import { formatClp } from '../domain/format-clp.ts';

/** What the simulator page of an open session shows. */
export interface SandboxPayPageInput {
  sessionId: string;
  restaurantName: string;
  locationName: string | null;
  orderNumber: string;
  orderType: 'delivery' | 'retiro';
  items: { name: string; quantity: number; unit_price: number; modifiers: string[] }[];
  shippingFee: number;
  total: number;
  preselectedMethod: string | null;
  /** The result of the customer's previous try, when it did not pay. */
  lastResult: 'failed' | 'cancelled' | null;
  payBefore: string;
  paymentTimeoutMinutes: number;
}

export interface MessagePageInput {
  title: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  tone: 'ok' | 'warning' | 'error';
  link?: { href: string; label: string };
  restaurantName?: string;
  orderNumber?: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:0 auto;padding:1rem 1rem 2rem}
.banner{margin:0 0 1rem;padding:.6rem .8rem;border-radius:.5rem;background:#fef3c7;color:#78350f;font-size:.875rem;border:1px solid #f59e0b}
.banner strong{letter-spacing:.04em}
.card{background:#fff;border-radius:.75rem;padding:1rem;box-shadow:0 1px 2px rgba(0,0,0,.08);margin-bottom:1rem}
.merchant{margin:0;color:#4b5563;font-size:.9rem}
h1{margin:.1rem 0 .75rem;font-size:1.35rem;line-height:1.25}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0;border-bottom:1px solid #e5e7eb}
li small{display:block;color:#6b7280}
.amount{white-space:nowrap;font-variant-numeric:tabular-nums}
.total{display:flex;justify-content:space-between;margin:.75rem 0 0;font-size:1.15rem;font-weight:700}
.row{display:flex;justify-content:space-between;margin:.5rem 0 0;color:#4b5563}
fieldset{border:0;margin:0 0 1rem;padding:0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}
.option{display:flex;align-items:center;gap:.75rem;min-height:3rem;padding:.6rem .8rem;margin-bottom:.5rem;background:#fff;border:2px solid #d1d5db;border-radius:.6rem;cursor:pointer}
.option input{width:1.25rem;height:1.25rem;margin:0;accent-color:#047857}
.option:has(input:checked){border-color:#047857;background:#ecfdf5}
button,.button{display:block;width:100%;min-height:3rem;margin:0 0 .6rem;padding:.75rem 1rem;border-radius:.6rem;border:2px solid transparent;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.pay{background:#047857;color:#fff}
.fail{background:#fff;color:#b91c1c;border-color:#fca5a5}
.abandon{background:transparent;color:#374151;border-color:#d1d5db}
.button{background:#1f2937;color:#fff}
button:focus-visible,.button:focus-visible,.option:focus-within{outline:3px solid #2563eb;outline-offset:2px}
.notice{padding:.75rem .9rem;border-radius:.6rem;margin:0 0 1rem}
.notice p{margin:0}
.notice p+p{margin-top:.5rem}
.notice.warning{background:#fef2f2;color:#7f1d1d;border:1px solid #fca5a5}
.notice.ok{background:#ecfdf5;color:#064e3b;border:1px solid #6ee7b7}
.notice.error{background:#fef2f2;color:#7f1d1d;border:1px solid #fca5a5}
.hint{color:#4b5563;font-size:.875rem;margin:.25rem 0 0}
`;

function layout(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
<p class="banner"><strong>MODO PRUEBA</strong> · Simulador de pagos. Aquí no se cobra dinero real.</p>
${body}
</main>
</body>
</html>
`;
}

const METHODS: { value: string; label: string }[] = [
  { value: 'tarjeta', label: 'Tarjeta de crédito o débito' },
  { value: 'transferencia', label: 'Transferencia bancaria' },
];

/** The form: the order, the method (card or transfer) and the three outcomes to simulate. */
export function renderSandboxPayPage(input: SandboxPayPageInput, nonce: string): string {
  const chosen = METHODS.some((m) => m.value === input.preselectedMethod) ? input.preselectedMethod : 'tarjeta';
  const items = input.items
    .map((item) => {
      const extras = item.modifiers.length > 0 ? `<small>${escapeHtml(item.modifiers.join(', '))}</small>` : '';
      return `<li><span>${item.quantity} × ${escapeHtml(item.name)}${extras}</span><span class="amount">${escapeHtml(formatClp(item.unit_price * item.quantity))}</span></li>`;
    })
    .join('\n');
  const shipping =
    input.orderType === 'delivery'
      ? `<p class="row"><span>Despacho</span><span class="amount">${escapeHtml(formatClp(input.shippingFee))}</span></p>`
      : '';
  const notice =
    input.lastResult === 'failed'
      ? '<p class="notice warning" role="status">El pago anterior fue rechazado y no se hizo ningún cobro. Puedes intentarlo de nuevo.</p>'
      : input.lastResult === 'cancelled'
        ? '<p class="notice warning" role="status">Abandonaste el pago anterior. Tu pedido te sigue esperando: puedes pagarlo ahora.</p>'
        : '';
  const methods = METHODS.map(
    (m) =>
      `<label class="option"><input type="radio" name="method" value="${m.value}"${m.value === chosen ? ' checked' : ''}> ${escapeHtml(m.label)}</label>`,
  ).join('\n');
  const where = input.locationName ? ` · ${escapeHtml(input.locationName)}` : '';
  const total = escapeHtml(formatClp(input.total));
  const body = `
<section class="card" aria-labelledby="order-title">
<p class="merchant">${escapeHtml(input.restaurantName)}${where}</p>
<h1 id="order-title">Pedido N° ${escapeHtml(input.orderNumber)}</h1>
<ul>
${items}
</ul>
${shipping}
<p class="total"><span>Total</span><span class="amount">${total}</span></p>
</section>
${notice}
<form method="post" action="${escapeHtml(input.sessionId)}">
<fieldset>
<legend>Medio de pago</legend>
${methods}
</fieldset>
<fieldset>
<legend>¿Qué quieres simular?</legend>
<button type="submit" name="result" value="success" class="pay">Pagar ${total}</button>
<button type="submit" name="result" value="failed" class="fail">Simular pago rechazado</button>
<button type="submit" name="result" value="cancelled" class="abandon">Abandonar y volver a la tienda</button>
</fieldset>
</form>
<p class="hint">Tienes hasta las ${escapeHtml(input.payBefore)} para pagar (${input.paymentTimeoutMinutes} minutos desde que hiciste el pedido). Después el pedido se anula.</p>
`;
  return layout(`Pago de prueba · Pedido N° ${input.orderNumber} · ${input.restaurantName}`, nonce, body);
}

/** A page that only tells something: paid, expired, cancelled, not found, a bad request. */
export function renderMessagePage(input: MessagePageInput, nonce: string): string {
  const heading =
    input.restaurantName && input.orderNumber
      ? `<p class="merchant">${escapeHtml(input.restaurantName)} · Pedido N° ${escapeHtml(input.orderNumber)}</p>`
      : '';
  const paragraphs = input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const link = input.link ? `<a class="button" href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.label)}</a>` : '';
  const body = `
<section class="card">
${heading}
<h1>${escapeHtml(input.title)}</h1>
<div class="notice ${input.tone}" role="status">${paragraphs}</div>
${link}
</section>
`;
  return layout(input.title, nonce, body);
}
