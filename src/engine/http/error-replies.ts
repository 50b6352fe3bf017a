import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { redactApiKeys } from '../domain/api-key-redaction.ts';
import { ApiError } from '../domain/errors.ts';
import { isStorageOutage, STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../storage-unavailable.ts';
import { describeValidationErrors } from './validation-messages.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Fastify's own refusals, in the API's words. */
function fromFastifyError(error: FastifyError & { validation?: ErrorObject[]; validationContext?: string }): ApiError | null {
  if (error.validation) {
    return new ApiError('invalid_request', describeValidationErrors(error.validation, error.validationContext ?? 'body'));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('invalid_request', `request body is larger than the limit of ${BODY_LIMIT_BYTES} bytes (1 MiB)`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('invalid_request', 'request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_request', 'request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'request body is not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ApiError('invalid_request', 'request body is not valid JSON');
  }
  if (error.statusCode === 413) {
    return new ApiError('invalid_request', `request body is larger than the limit of ${BODY_LIMIT_BYTES} bytes (1 MiB)`);
  }
  if (error.statusCode === 415) return new ApiError('invalid_request', 'request body must be JSON (Content-Type: application/json)');
  return null;
}

/** Seconds a client should wait before retrying a write refused on a full disk. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  const retryAfter = error.code === 'storage_full' ? STORAGE_FULL_RETRY_AFTER_SECONDS : error.retryAfterSeconds;
  if (retryAfter !== null) reply.header('retry-after', String(retryAfter));
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

/** The 404 of a path no route serves: the method and the path with any key in it masked, never the query. */
function noSuchEndpoint(request: FastifyRequest): ApiError {
  const path = (request.url.split('?')[0] ?? '').slice(0, MAX_PATH_SHOWN);
  return new ApiError('not_found', `no such endpoint: ${request.method} ${redactApiKeys(path)}`);
}

const MAX_PATH_SHOWN = 200;

/**
 * The database out of reach or not taking writes (a failover: issue 35), whether the PostgreSQL layer
 * spent its retry budget (StorageUnavailable) or a pool could not connect: 503 with Retry-After, never
 * a 500. It is not kept as an Idempotency-Key's answer (it is no answer: the same request may pass
 * later), and says nothing of the database beyond that.
 */
export function storageUnavailableReply(reply: FastifyReply): FastifyReply {
  return sendApiError(
    reply,
    new ApiError('storage_unavailable', 'the database cannot be written just now (a failover may be under way); try again', STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS),
  );
}

/** Answers a refusal the idempotency record must keep (http/idempotency.ts); false to answer it plainly. */
export type RefusalRecorder = (request: FastifyRequest, reply: FastifyReply, refusal: ApiError) => Promise<boolean>;

export function installErrorReplies(app: FastifyInstance, recordRefusal: RefusalRecorder = async () => false): void {
  const refuse = async (request: FastifyRequest, reply: FastifyReply, refusal: ApiError) => {
    try {
      if (await recordRefusal(request, reply, refusal)) return reply;
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      if (isStorageOutage(error)) return storageUnavailableReply(reply);
      throw error;
    }
    return sendApiError(reply, refusal);
  };
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // An unknown route is 404 whatever came with it (no Content-Type on QUERY, a body that is not JSON).
    if (request.is404) return sendApiError(reply, noSuchEndpoint(request));
    if (error instanceof ApiError) return refuse(request, reply, error);
    if (isStorageOutage(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return storageUnavailableReply(reply);
    }
    const translated = fromFastifyError(error);
    // A body too large was never read: there is nothing to fingerprint, so nothing is stored.
    const unread = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413;
    if (translated) return unread ? sendApiError(reply, translated) : refuse(request, reply, translated);
    // Anything else is ours to fix: log it whole, tell the client nothing of it.
    request.log.error({ err: error }, 'unexpected error');
    return sendApiError(reply, new ApiError('internal_error', 'internal error; the request was not completed'));
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => sendApiError(reply, noSuchEndpoint(request)));
}

/**
 * Fastify's refusals made before routing (a URL that does not decode, a path parameter over the
 * length limit), which it would otherwise answer in its own shape: 400 `invalid_request`.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a path parameter is longer than any id this API gives out'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'the request path is not valid URL encoding'
        : 'the request could not be routed';
  return sendApiError(reply, new ApiError('invalid_request', message));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (broken framing, control characters
 * in headers, headers over the size limit, a client too slow to send its request): answered in
 * the API's error shape, then the connection is closed.
 */
export function clientErrorReply(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const message =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request was not received in time'
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 'the request headers are larger than the server accepts'
          : 'the request is not valid HTTP';
    const body = JSON.stringify(new ApiError('invalid_request', message).toBody());
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
