import { text } from 'node:stream/consumers';
import { MERCADOPAGO_PROVIDER_NAME } from '../engine/payments/mercadopago.ts';
import { checkMercadoPagoConnection } from '../engine/payments/mercadopago-connection.ts';
import { removePaymentCredentials, setMercadoPagoCredentials, showPaymentCredentials, storedPaymentCredentials } from '../engine/services/payment-credentials.ts';
import { parseCommand, runOnEngine, usageExit, type Usage } from './admin-command.ts';

const USAGE = `usage:
  npm run payments -- set --restaurant ID --provider mercadopago [--api-base URL] [--db PATH]
  npm run payments -- show --restaurant ID [--provider mercadopago] [--db PATH]
  npm run payments -- test --restaurant ID [--provider mercadopago] [--db PATH]
  npm run payments -- remove --restaurant ID [--provider mercadopago] [--db PATH]
set reads the access token and the webhook secret from MERCADOPAGO_ACCESS_TOKEN and
MERCADOPAGO_WEBHOOK_SECRET, or else from stdin (two lines: the token, then the secret); never
from a flag. They are never printed. --api-base defaults to https://api.mercadopago.com.`;

const usage: Usage = usageExit(USAGE);

/** The token and the secret: from the environment, else the first two lines of stdin. */
async function readSecrets(): Promise<{ accessToken: string; webhookSecret: string }> {
  let accessToken = process.env.MERCADOPAGO_ACCESS_TOKEN ?? '';
  let webhookSecret = process.env.MERCADOPAGO_WEBHOOK_SECRET ?? '';
  if (!accessToken || !webhookSecret) {
    if (process.stdin.isTTY) console.error('Paste the access token, Enter, then the webhook secret, Enter, then Ctrl-D:');
    const lines = (await text(process.stdin)).split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
    let next = 0;
    if (!accessToken) accessToken = lines[next++] ?? '';
    if (!webhookSecret) webhookSecret = lines[next++] ?? '';
  }
  if (!accessToken) usage('the access token is needed: MERCADOPAGO_ACCESS_TOKEN or stdin');
  if (!webhookSecret) usage('the webhook secret is needed: MERCADOPAGO_WEBHOOK_SECRET or stdin');
  return { accessToken, webhookSecret };
}

async function main(): Promise<void> {
  const { command, values } = parseCommand(
    {
      restaurant: { type: 'string' },
      provider: { type: 'string' },
      'api-base': { type: 'string' },
      db: { type: 'string' },
    },
    ['set', 'show', 'test', 'remove'],
    usage,
  );
  const restaurant = values.restaurant ?? usage('--restaurant ID is required');
  if (command === 'set' && values.provider === undefined) usage('--provider mercadopago is required');
  if (values.provider !== undefined && values.provider !== MERCADOPAGO_PROVIDER_NAME) usage('--provider must be mercadopago');
  if (command !== 'set' && values['api-base'] !== undefined) usage('--api-base goes with set');

  if (command === 'set') {
    const secrets = await readSecrets();
    runOnEngine(values.db, (engine) => {
      const view = setMercadoPagoCredentials(engine, restaurant, { ...secrets, apiBase: values['api-base'] });
      console.log(JSON.stringify(view, null, 2));
    });
    return;
  }
  if (command === 'test') {
    let credentials = null as { accessToken: string; apiBase: string } | null;
    runOnEngine(values.db, (engine) => {
      showPaymentCredentials(engine, restaurant);
      credentials = storedPaymentCredentials(engine)(restaurant, MERCADOPAGO_PROVIDER_NAME);
    });
    if (process.exitCode) return;
    if (!credentials) {
      console.error(`restaurant ${restaurant} has no Mercado Pago credentials`);
      process.exitCode = 1;
      return;
    }
    const check = await checkMercadoPagoConnection({ accessToken: credentials.accessToken, apiBase: credentials.apiBase });
    if (check.ok) {
      console.log(JSON.stringify({ ok: true, api_base: credentials.apiBase, user_id: check.user_id }, null, 2));
    } else {
      console.log(JSON.stringify({ ok: false, api_base: credentials.apiBase, reason: check.reason, error: check.error }, null, 2));
      process.exitCode = 1;
    }
    return;
  }
  runOnEngine(values.db, (engine) => {
    if (command === 'show') {
      const view = showPaymentCredentials(engine, restaurant);
      console.log(JSON.stringify(view ?? { restaurant_id: restaurant, provider: MERCADOPAGO_PROVIDER_NAME, configured: false }, null, 2));
    } else {
      const removed = removePaymentCredentials(engine, restaurant);
      console.log(JSON.stringify({ restaurant_id: restaurant, provider: MERCADOPAGO_PROVIDER_NAME, removed }, null, 2));
    }
  });
}

await main();
