// npm run openapi: writes docs/openapi.json, the document GET /v1/openapi.json serves, and the
// typed client's types generated from it (docs/examples/comanda-api.ts). A test fails when
// either copy is stale.
import { writeFileSync } from 'node:fs';
import { clientTypesText, openApiDocumentText } from '../engine/http/openapi/generate.ts';

const DOCUMENT_PATH = new URL('../../docs/openapi.json', import.meta.url);
const CLIENT_TYPES_PATH = new URL('../../docs/examples/comanda-api.ts', import.meta.url);

const document = await openApiDocumentText();
writeFileSync(DOCUMENT_PATH, document);
writeFileSync(CLIENT_TYPES_PATH, await clientTypesText(JSON.parse(document) as Record<string, unknown>));
console.log(`wrote ${DOCUMENT_PATH.pathname} and ${CLIENT_TYPES_PATH.pathname}`);
