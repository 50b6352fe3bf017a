import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { ApiError } from '../domain/errors.ts';
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

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

export function installErrorReplies(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    const translated = fromFastifyError(error);
    if (translated) return sendApiError(reply, translated);
    // Anything else is ours to fix: log it whole, tell the client nothing of it.
    request.log.error({ err: error }, 'unexpected error');
    return sendApiError(reply, new ApiError('internal_error', 'internal error; the request was not completed'));
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendApiError(reply, new ApiError('not_found', `no such endpoint: ${request.method} ${(request.url.split('?')[0] ?? '').slice(0, 200)}`)),
  );
}
