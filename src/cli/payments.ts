import { text } from 'node:stream/consumers';
import { paymentProviderEntry, PAYMENT_PROVIDER_NAMES } from '../engine/payments/payment-providers.ts';
import { removePaymentCredentials, setPaymentCredentials, showPaymentCredentials, storedPaymentCredentials } from '../engine/services/payments/payment-credentials.ts';
import { parseCommand, runOnEngine, usageExit, type Usage } from './admin-command.ts';

const PROVIDERS = PAYMENT_PROVIDER_NAMES.join('|');
/** The first provider of the registry, when --provider is left out of show, test and remove. */
const DEFAULT_PROVIDER = PAYMENT_PROVIDER_NAMES[0]!;

/** Where `set` reads a provider's secrets from: MERCADOPAGO_ACCESS_TOKEN for mercadopago. */
function secretVariables(provider: string): { token: string; secret: string } {
  const prefix = provider.toUpperCase().replace(/[^A-Z0-9]/g, '_');
  return { token: `${prefix}_ACCESS_TOKEN`, secret: `${prefix}_WEBHOOK_SECRET` };
}

const USAGE = `usage:
  npm run payments -- set --restaurant ID --provider ${PROVIDERS} [--api-base URL] [--db PATH]
  npm run payments -- show --restaurant ID [--provider ${PROVIDERS}] [--db PATH]
  npm run payments -- test --restaurant ID [--provider ${PROVIDERS}] [--db PATH]
  npm run payments -- remove --restaurant ID [--provider ${PROVIDERS}] [--db PATH]
set reads the access token and the webhook secret from <PROVIDER>_ACCESS_TOKEN and
<PROVIDER>_WEBHOOK_SECRET (MERCADOPAGO_ACCESS_TOKEN, …), or else from stdin (two lines: the token,
then the secret); never from a flag. They are never printed. --api-base defaults to the
provider's public API (${PAYMENT_PROVIDER_NAMES.map((name) => `${name}: ${paymentProviderEntry(name)!.defaultApiBase}`).join(', ')}).`;

const usage: Usage = usageExit(USAGE);

/** The token and the secret: from the environment, else the first two lines of stdin. */
async function readSecrets(provider: string): Promise<{ accessToken: string; webhookSecret: string }> {
  const variables = secretVariables(provider);
  let accessToken = process.env[variables.token] ?? '';
  let webhookSecret = process.env[variables.secret] ?? '';
  if (!accessToken || !webhookSecret) {
    if (process.stdin.isTTY) console.error('Paste the access token, Enter, then the webhook secret, Enter, then Ctrl-D:');
    const lines = (await text(process.stdin)).split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
    let next = 0;
    if (!accessToken) accessToken = lines[next++] ?? '';
    if (!webhookSecret) webhookSecret = lines[next++] ?? '';
  }
  if (!accessToken) usage(`the access token is needed: ${variables.token} or stdin`);
  if (!webhookSecret) usage(`the webhook secret is needed: ${variables.secret} or stdin`);
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
  if (command === 'set' && values.provider === undefined) usage(`--provider ${PROVIDERS} is required`);
  const provider = values.provider ?? DEFAULT_PROVIDER;
  const entry = paymentProviderEntry(provider) ?? usage(`--provider must be one of: ${PAYMENT_PROVIDER_NAMES.join(', ')}`);
  if (command !== 'set' && values['api-base'] !== undefined) usage('--api-base goes with set');

  if (command === 'set') {
    const secrets = await readSecrets(provider);
    await runOnEngine(values.db, async (engine) => {
      const view = await setPaymentCredentials(engine, restaurant, provider, { ...secrets, apiBase: values['api-base'] });
      console.log(JSON.stringify(view, null, 2));
    });
    return;
  }
  if (command === 'test') {
    let credentials = null as { accessToken: string; apiBase: string } | null;
    await runOnEngine(values.db, async (engine) => {
      await showPaymentCredentials(engine, restaurant, provider);
      credentials = storedPaymentCredentials(engine)(restaurant, provider);
    });
    if (process.exitCode) return;
    if (!credentials) {
      console.error(`restaurant ${restaurant} has no ${entry.label} credentials`);
      process.exitCode = 1;
      return;
    }
    const check = await entry.checkConnection({ accessToken: credentials.accessToken, apiBase: credentials.apiBase });
    if (check.ok) {
      console.log(JSON.stringify({ ok: true, api_base: credentials.apiBase, user_id: check.user_id }, null, 2));
    } else {
      console.log(JSON.stringify({ ok: false, api_base: credentials.apiBase, reason: check.reason, error: check.error }, null, 2));
      process.exitCode = 1;
    }
    return;
  }
  await runOnEngine(values.db, async (engine) => {
    if (command === 'show') {
      const view = await showPaymentCredentials(engine, restaurant, provider);
      console.log(JSON.stringify(view ?? { restaurant_id: restaurant, provider, configured: false }, null, 2));
    } else {
      const removed = await removePaymentCredentials(engine, restaurant, provider);
      console.log(JSON.stringify({ restaurant_id: restaurant, provider, removed }, null, 2));
    }
  });
}

await main();
