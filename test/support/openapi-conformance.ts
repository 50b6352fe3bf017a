// Every answer the HTTP tests receive is checked against the OpenAPI document the engine serves:
// a documented status, the documented headers (required ones present, values of their type) and a
// body of the documented schema. A drift between the engine and its document fails the test that
// saw it. Answers to requests outside the document (unknown routes, the sandbox payment page,
// the document itself) are not checked.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { get } from 'node:http';

type Json = Record<string, any>;

interface Conformance {
  document: Json;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
  routes: { method: string; template: string; pattern: RegExp }[];
}

const byDocumentText = new Map<string, Conformance>();
const byBaseUrl = new Map<string, Promise<Conformance>>();

const DOCUMENT_ID = 'https://comanda.invalid/openapi.json';

function conformanceFor(text: string): Conformance {
  const known = byDocumentText.get(text);
  if (known) return known;
  const document = JSON.parse(text) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const routes: Conformance['routes'] = [];
  for (const [template, item] of Object.entries(document.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const method of Object.keys(item as Json)) routes.push({ method: method.toUpperCase(), template, pattern });
  }
  const made = { document, ajv, validators: new Map(), routes };
  byDocumentText.set(text, made);
  return made;
}

/** The served document, on a connection of its own that closes after it: tests count sockets. */
function documentText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    }).on('error', reject);
  });
}

async function documentFor(baseUrl: string): Promise<Conformance> {
  let pending = byBaseUrl.get(baseUrl);
  if (!pending) {
    pending = documentText(`${baseUrl}/openapi.json`).then(conformanceFor);
    byBaseUrl.set(baseUrl, pending);
  }
  return pending;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validator(conformance: Conformance, path: string): ValidateFunction {
  let found = conformance.validators.get(path);
  if (!found) {
    found = conformance.ajv.compile({ $ref: `${DOCUMENT_ID}#/${path}` });
    conformance.validators.set(path, found);
  }
  return found;
}

function headerValue(schema: Json, text: string): unknown {
  return schema.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
}

export interface AnswerToCheck {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Throws when the answer to `method path` (path relative to baseUrl) breaks the served document. */
export async function assertConformsToDocument(baseUrl: string, method: string, path: string, answer: AnswerToCheck): Promise<void> {
  const conformance = await documentFor(baseUrl);
  // The path as fetch sends it (dot segments resolved), relative to the base URL.
  const base = new URL(baseUrl).pathname;
  const sent = new URL(`${baseUrl}${path}`).pathname;
  if (!sent.startsWith(`${base}/`)) return;
  const bare = sent.slice(base.length).replace(/(.)\/$/, '$1');
  const route = conformance.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(bare));
  if (!route) return;
  const operation = conformance.document.paths[route.template][route.method.toLowerCase()] as Json;
  const where = `${method} ${path} answered ${answer.status}`;
  const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((key) => operation.responses[key]);
  if (!statusKey) throw new Error(`${where}, a status the OpenAPI document does not give for ${operation.operationId}: ${answer.text.slice(0, 300)}`);
  const documented = operation.responses[statusKey] as Json;
  const problems: string[] = [];
  for (const [name, header] of Object.entries((documented.headers ?? {}) as Json)) {
    const value = answer.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const check = validator(conformance, pointer('paths', route.template, route.method.toLowerCase(), 'responses', statusKey, 'headers', name, 'schema'));
    if (!check(headerValue(header.schema as Json, value))) problems.push(`header ${name}: ${value} ${conformance.ajv.errorsText(check.errors)}`);
  }
  // The media type answered, where the document gives it (a report table's text/csv), else JSON.
  const content = (documented.content ?? {}) as Json;
  const type = answer.headers.get('content-type') ?? '';
  const mediaType = Object.keys(content).find((m) => m !== 'application/json' && type.startsWith(m)) ?? (content['application/json'] ? 'application/json' : undefined);
  if (mediaType) {
    if (!type.startsWith(mediaType)) problems.push(`content-type ${type}, not ${mediaType}`);
    const check = validator(conformance, pointer('paths', route.template, route.method.toLowerCase(), 'responses', statusKey, 'content', mediaType, 'schema'));
    const body = mediaType === 'application/json' ? answer.body : answer.text;
    if (!check(body)) problems.push(`body: ${conformance.ajv.errorsText(check.errors, { dataVar: 'body' })}`);
  } else if (answer.text.length > 0) {
    problems.push('a body where the document gives none');
  }
  if (problems.length > 0) {
    throw new Error(`${where}, which breaks the OpenAPI document (${operation.operationId} ${statusKey}): ${problems.join('; ')}\n${answer.text.slice(0, 500)}`);
  }
}
