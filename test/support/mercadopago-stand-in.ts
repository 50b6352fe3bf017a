// A local stand-in of Mercado Pago's REST API, written from its public API reference (Checkout
// Pro preferences, payments by id and search, refunds, signed webhooks), on 127.0.0.1 only. It
// keeps what it was asked and lets a test play the customer (a payment on a preference) and
// Mercado Pago (a signed notification), and make it fail.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInPreference {
  id: string;
  body: Record<string, any>;
  idempotencyKey: string | null;
}

export interface StandInPayment {
  id: number;
  status: string;
  status_detail: string;
  external_reference: string | null;
  transaction_amount: number;
  currency_id: string;
  payment_type_id: string;
  preference_id: string | null;
}

export interface StandInRefund {
  id: number;
  payment_id: number;
  amount: number;
  status: 'approved';
  idempotencyKey: string;
}

/** `before`: the request is held unanswered and never acted on; `after`: it is acted on (a refund made), then its answer is never sent. */
type StallMode = 'before' | 'after';

/** What the next matching requests meet, in the order the test asked: an error status, or no answer at all. */
type Fault = { match: RegExp; left: number } & ({ kind: 'fail'; status: number } | { kind: 'stall'; mode: StallMode });

export class MercadoPagoStandIn {
  readonly preferences = new Map<string, StandInPreference>();
  readonly payments = new Map<number, StandInPayment>();
  /** Refunds made, by idempotency key (a key used again answers the same refund). */
  readonly refunds = new Map<string, StandInRefund>();
  /** Every refund request received, repeated or not. */
  refundRequests = 0;
  /** The X-Idempotency-Key of every refund request, in order (null when missing). */
  readonly refundKeys: (string | null)[] = [];
  /** Every request, as "METHOD /path". */
  readonly requests: string[] = [];
  private readonly faults: Fault[] = [];
  /** Requests held by stallNext, as "METHOD /path"; `dropped` counts those whose client gave up (closed the connection). */
  readonly stalled: string[] = [];
  dropped = 0;
  private hold: Promise<void> | null = null;
  /** Preferences asked for while held (holdPreferences), before any answer. */
  readonly heldPreferences: Record<string, any>[] = [];
  private nextId = 1_000_000_001;
  private server!: Server;
  baseUrl = '';

  constructor(private readonly accessToken: string) {}

  static async start(accessToken: string): Promise<MercadoPagoStandIn> {
    const standIn = new MercadoPagoStandIn(accessToken);
    standIn.server = createServer((request, response) => {
      void standIn.handle(request, response);
    });
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.baseUrl = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}`;
    return standIn;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next `count` requests matching "METHOD /path?query" answer `status`. */
  failNext(match: RegExp, count: number, status = 503): void {
    this.faults.push({ kind: 'fail', match, status, left: count });
  }

  /**
   * The next `count` requests matching "METHOD /path" are never answered, as a provider that hangs:
   * `before` they are acted on, or `after` (the refund is made, its answer is lost on the way).
   */
  stallNext(match: RegExp, count: number, mode: StallMode = 'before'): void {
    this.faults.push({ kind: 'stall', match, mode, left: count });
  }

  /** Preference requests wait (unanswered) until the returned release is called. */
  holdPreferences(): () => void {
    let release!: () => void;
    this.hold = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.hold = null;
      release();
    };
  }

  /** The customer pays (or fails to) on the preference of an order. */
  pay(orderId: string, options: { status?: string; amount?: number; currency?: string; type?: string } = {}): StandInPayment {
    const preference = [...this.preferences.values()].find((p) => p.body.external_reference === orderId);
    const total = preference
      ? (preference.body.items as { quantity: number; unit_price: number }[]).reduce((sum, i) => sum + i.quantity * i.unit_price, 0)
      : 0;
    const status = options.status ?? 'approved';
    const payment: StandInPayment = {
      id: this.nextId++,
      status,
      status_detail: status === 'approved' ? 'accredited' : status === 'rejected' ? 'cc_rejected_other_reason' : 'pending_contingency',
      external_reference: orderId,
      transaction_amount: options.amount ?? total,
      currency_id: options.currency ?? 'CLP',
      payment_type_id: options.type ?? 'credit_card',
      preference_id: preference?.id ?? null,
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  /**
   * Mercado Pago's notification of a payment: POST to `url` + `?data.id=…&type=payment`, signed as
   * the reference says: x-signature "ts=…,v1=HMAC-SHA256(secret, 'id:…;request-id:…;ts:…;')".
   */
  async notify(
    url: string,
    paymentId: number | string,
    secret: string,
    options: { tsSeconds: number; requestId?: string; signature?: string },
  ): Promise<{ status: number; body: any }> {
    const requestId = options.requestId ?? randomUUID();
    const ts = String(options.tsSeconds);
    const v1 = createHmac('sha256', secret).update(`id:${paymentId};request-id:${requestId};ts:${ts};`).digest('hex');
    const target = new URL(url);
    target.searchParams.set('data.id', String(paymentId));
    target.searchParams.set('type', 'payment');
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': options.signature ?? `ts=${ts},v1=${v1}`,
        'x-request-id': requestId,
      },
      body: JSON.stringify({ action: 'payment.updated', api_version: 'v1', type: 'payment', live_mode: true, data: { id: String(paymentId) } }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.baseUrl);
    const line = `${request.method} ${url.pathname}`;
    this.requests.push(line);
    // Failures and stalls are matched against the line with its query ("GET /v1/payments/search?external_reference=…").
    const target = `${line}${url.search}`;
    const fault = this.faults.find((f) => f.left > 0 && f.match.test(target));
    if (fault) fault.left--;
    const stall = fault?.kind === 'stall' ? fault : undefined;
    const hang = () => {
      this.stalled.push(line);
      response.on('close', () => this.dropped++);
    };
    if (stall?.mode === 'before') return hang();
    const send = (status: number, body: unknown) => {
      if (stall?.mode === 'after') return hang();
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (fault?.kind === 'fail') {
      return send(fault.status, { message: 'internal_error', error: 'internal_error', status: fault.status, cause: [] });
    }
    if (request.headers.authorization !== `Bearer ${this.accessToken}`) {
      return send(401, { message: 'invalid access token', error: 'unauthorized', status: 401, cause: [] });
    }
    let body: any = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { message: 'invalid json', error: 'bad_request', status: 400, cause: [] });
      }
    }
    const idempotencyKey = typeof request.headers['x-idempotency-key'] === 'string' ? request.headers['x-idempotency-key'] : null;

    if (request.method === 'GET' && url.pathname === '/users/me') return send(200, { id: 424242, nickname: 'TESTRESTAURANT', site_id: 'MLC' });

    if (request.method === 'POST' && url.pathname === '/checkout/preferences') {
      const problem = preferenceProblem(body);
      if (problem) return send(400, { message: problem, error: 'invalid_items', status: 400, cause: [] });
      if (this.hold) {
        this.heldPreferences.push(body);
        await this.hold;
      }
      const existing = idempotencyKey ? [...this.preferences.values()].find((p) => p.idempotencyKey === idempotencyKey) : undefined;
      const preference = existing ?? { id: `424242-${randomUUID()}`, body, idempotencyKey };
      this.preferences.set(preference.id, preference);
      return send(201, {
        ...preference.body,
        id: preference.id,
        collector_id: 424242,
        init_point: `https://www.mercadopago.cl/checkout/v1/redirect?pref_id=${preference.id}`,
        sandbox_init_point: `https://sandbox.mercadopago.cl/checkout/v1/redirect?pref_id=${preference.id}`,
      });
    }

    if (request.method === 'GET' && url.pathname === '/v1/payments/search') {
      const reference = url.searchParams.get('external_reference');
      const results = [...this.payments.values()].filter((p) => reference === null || p.external_reference === reference);
      return send(200, { paging: { total: results.length, limit: 30, offset: 0 }, results });
    }

    const paymentMatch = /^\/v1\/payments\/(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && paymentMatch) {
      const payment = this.payments.get(Number(paymentMatch[1]));
      if (!payment) return send(404, { message: 'Payment not found', error: 'not_found', status: 404, cause: [{ code: 2000 }] });
      return send(200, payment);
    }

    const refundMatch = /^\/v1\/payments\/(\d+)\/refunds$/.exec(url.pathname);
    if (request.method === 'POST' && refundMatch) {
      this.refundRequests++;
      this.refundKeys.push(idempotencyKey);
      if (!idempotencyKey) return send(400, { message: 'Header-X-Idempotency-Key-can\u2019t-be-null', status: 400, cause: [{ code: 4292 }] });
      const kept = this.refunds.get(idempotencyKey);
      if (kept) return send(201, kept);
      const payment = this.payments.get(Number(refundMatch[1]));
      if (!payment) return send(404, { message: 'Payment not found', status: 404, cause: [{ code: 2000 }] });
      if (payment.status !== 'approved') {
        return send(400, { message: 'The action requested is not valid for the current payment state', status: 400, cause: [{ code: 2063 }] });
      }
      const amount = typeof body?.amount === 'number' ? body.amount : payment.transaction_amount;
      const refund: StandInRefund = { id: this.nextId++, payment_id: payment.id, amount, status: 'approved', idempotencyKey };
      this.refunds.set(idempotencyKey, refund);
      if (amount === payment.transaction_amount) payment.status = 'refunded';
      return send(201, refund);
    }
    return send(404, { message: 'resource not found', error: 'not_found', status: 404, cause: [] });
  }
}

/** What the reference requires of a Checkout Pro preference that Comanda sends. */
function preferenceProblem(body: any): string | null {
  if (!body || !Array.isArray(body.items) || body.items.length === 0) return 'items must be a non-empty array';
  for (const item of body.items) {
    if (typeof item.title !== 'string' || item.title.length === 0) return 'items.title is required';
    if (!Number.isInteger(item.quantity) || item.quantity < 1) return 'items.quantity must be a positive integer';
    if (typeof item.unit_price !== 'number' || item.unit_price <= 0) return 'items.unit_price must be positive';
    if (item.currency_id !== 'CLP') return 'items.currency_id must be CLP';
    if (!Number.isInteger(item.unit_price)) return 'CLP amounts have no decimals';
  }
  for (const key of ['success', 'failure', 'pending']) {
    if (typeof body.back_urls?.[key] !== 'string') return `back_urls.${key} is required`;
  }
  if (typeof body.notification_url !== 'string') return 'notification_url is required';
  if (typeof body.external_reference !== 'string') return 'external_reference is required';
  return null;
}
