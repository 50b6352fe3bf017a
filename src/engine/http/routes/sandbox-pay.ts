import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import { PAYMENT_RESULTS, type PaymentResult } from '../../payments/payment-provider.ts';
import { renderMessagePage, renderSandboxPayPage, type MessagePageInput } from '../../payments/sandbox-pay-page.ts';
import { SANDBOX_PROVIDER_NAME, SANDBOX_SESSION_ID } from '../../payments/sandbox-simulator.ts';
import {
  confirmPayment,
  readPaymentSession,
  returnUrlWith,
  type PaymentSessionState,
  type PaymentSessionView,
} from '../../services/payments/confirm-payment.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';

const FORM_BODY_LIMIT_BYTES = 4096;
/** The methods the simulator offers (the API's card and transfer). */
const SIMULATED_METHODS = ['tarjeta', 'transferencia'] as const;

interface SessionParams {
  session_id: string;
}

/** Strict headers for a page that takes payment decisions: no scripts, no framing, no caching. */
function sendHtml(reply: FastifyReply, status: number, render: (nonce: string) => string, formTarget?: string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  const formAction = ["'self'", ...(formTarget ? [new URL(formTarget).origin] : [])].join(' ');
  return reply
    .code(status)
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(render(nonce));
}

function sendMessage(reply: FastifyReply, status: number, page: MessagePageInput): FastifyReply {
  return sendHtml(reply, status, (nonce) => renderMessagePage(page, nonce));
}

const notFoundPage: MessagePageInput = {
  title: 'Página de pago no encontrada',
  paragraphs: ['No encontramos esta página de pago. Revisa el enlace que te dio la tienda.'],
  tone: 'error',
};

/** The simulator's own sessions only: any other id is the same 404 page. */
async function findSession(context: HttpContext, sessionId: string): Promise<PaymentSessionView | null> {
  if (!SANDBOX_SESSION_ID.test(sessionId)) return null;
  const view = await readPaymentSession(context.engine, sessionId);
  return view && view.session.provider === SANDBOX_PROVIDER_NAME ? view : null;
}

function closedPage(view: PaymentSessionView, reason: 'expired' | 'cancelled'): MessagePageInput {
  return {
    title: 'Este pedido fue anulado',
    paragraphs: [
      reason === 'expired'
        ? `El pedido se anuló porque no se pagó dentro de ${view.paymentTimeoutMinutes} minutos.`
        : 'El restaurante anuló este pedido.',
      'No se hizo ningún cobro y ya no es posible pagarlo. Si aún lo quieres, haz un pedido nuevo en la tienda.',
    ],
    tone: 'warning',
    link: { href: returnUrlWith(view.session.return_url, view.orderId, 'cancelled'), label: 'Volver a la tienda' },
    restaurantName: view.restaurantName,
    orderNumber: view.orderNumber,
  };
}

function paidPage(view: PaymentSessionView): MessagePageInput {
  return {
    title: 'Pago aprobado',
    paragraphs: ['Tu pago de prueba fue aprobado y el restaurante ya recibió tu pedido.'],
    tone: 'ok',
    link: { href: returnUrlWith(view.session.return_url, view.orderId, 'success'), label: 'Volver a la tienda' },
    restaurantName: view.restaurantName,
    orderNumber: view.orderNumber,
  };
}

function showSession(reply: FastifyReply, view: PaymentSessionView, state: PaymentSessionState): FastifyReply {
  if (state.kind === 'paid') return sendMessage(reply, 200, paidPage(view));
  if (state.kind === 'closed') return sendMessage(reply, 410, closedPage(view, state.reason));
  return sendHtml(
    reply,
    200,
    (nonce) =>
      renderSandboxPayPage(
        {
          sessionId: view.session.id,
          restaurantName: view.restaurantName,
          locationName: view.locationName,
          orderNumber: view.orderNumber,
          orderType: view.orderType,
          items: view.items,
          shippingFee: view.shippingFee,
          total: view.total,
          preselectedMethod: view.session.preselected_method,
          lastResult: state.lastResult,
          payBefore: view.payBefore,
          paymentTimeoutMinutes: view.paymentTimeoutMinutes,
        },
        nonce,
      ),
    view.session.return_url,
  );
}

function formField(body: unknown, name: string): string | null {
  if (body === null || typeof body !== 'object') return null;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/**
 * The sandbox payment simulator, `{origin}/v1/sandbox/pay/{session_id}` (api-v1-decisions.md,
 * Payments): a public HTML page (no API key) where the customer picks card or transfer and
 * success, failure or abandon. The choice is applied through the same service as a provider's
 * confirmation, then the browser is sent (303) to `return_url` with `order_id` and `payment`.
 */
export function registerSandboxPayRoutes(app: ApiServer, context: HttpContext): void {
  void app.register(async (scope) => {
    // Scoped to these routes: the API itself speaks JSON only.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error instanceof ApiError ? error.status : (error.statusCode ?? 500);
      if (status >= 500) request.log.error({ err: error }, 'sandbox payment page failed');
      return sendMessage(reply, status >= 500 ? 500 : 400, {
        title: status >= 500 ? 'No pudimos procesar el pago' : 'Solicitud no válida',
        paragraphs: [
          status >= 500
            ? 'Ocurrió un error inesperado. No se hizo ningún cobro; vuelve a intentarlo en unos minutos.'
            : 'No pudimos leer tu elección. Vuelve a la página de pago y elige una opción.',
        ],
        tone: 'error',
      });
    });

    scope.get<{ Params: SessionParams }>(
      '/sandbox/pay/:session_id',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const view = await findSession(context, request.params.session_id);
        if (!view) return sendMessage(reply, 404, notFoundPage);
        return showSession(reply, view, view.state);
      },
    );

    scope.post<{ Params: SessionParams }>(
      '/sandbox/pay/:session_id',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const view = await findSession(context, request.params.session_id);
        if (!view) return sendMessage(reply, 404, notFoundPage);
        const back = { href: view.session.id, label: 'Volver a la página de pago' };
        const result = formField(request.body, 'result');
        if (result === null || !PAYMENT_RESULTS.includes(result as PaymentResult)) {
          return sendMessage(reply, 400, {
            title: 'Elige qué simular',
            paragraphs: ['Elige «Pagar», «Simular pago rechazado» o «Abandonar» en la página de pago.'],
            tone: 'error',
            link: back,
          });
        }
        const method = formField(request.body, 'method');
        if (result === 'success' && !SIMULATED_METHODS.includes(method as (typeof SIMULATED_METHODS)[number])) {
          return sendMessage(reply, 400, {
            title: 'Elige un medio de pago',
            paragraphs: ['Para pagar, elige tarjeta o transferencia.'],
            tone: 'error',
            link: back,
          });
        }
        const outcome = await confirmPayment(context.engine, {
          session_id: view.session.id,
          result: result as PaymentResult,
          method: result === 'success' ? (method as (typeof SIMULATED_METHODS)[number]) : null,
        });
        if (!outcome) return sendMessage(reply, 404, notFoundPage);
        const { state } = outcome;
        if (state.kind === 'closed') return sendMessage(reply, 410, closedPage(view, state.reason));
        const payment = state.kind === 'paid' ? 'success' : (state.lastResult ?? 'failed');
        return reply.code(303).header('Cache-Control', 'no-store').redirect(returnUrlWith(view.session.return_url, view.orderId, payment), 303);
      },
    );
  });
}
