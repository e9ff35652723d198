import { errorResponse, jsonResponse } from '../http/handler.js';
import { HttpError } from '../http/http-error.js';
import { bearerToken } from '../security/secrets.js';
import type { CoreRequest, CoreResponse } from '../http/types.js';

/**
 * A request that presents no key at all (no bearer token, no `publishableKey`): OFREP answers it 401, where
 * Reflag's runtime routes answer every key problem 403.
 */
function withoutCredentials(request: CoreRequest): boolean {
  return !bearerToken(request.headers['authorization']) && !request.query.some(([name]) => name === 'publishableKey');
}

/** The message, and the field issues that say more than it does. */
function details(error: HttpError): string {
  const issues = Object.entries(error.issues ?? {})
    .map(([path, messages]) => [path, messages.filter((m) => m !== error.message)] as const)
    .filter(([, messages]) => messages.length)
    .map(([path, messages]) => `${path || '(body)'}: ${messages.join('; ')}`);
  return issues.length ? `${error.message} (${issues.join(', ')})` : error.message;
}

/**
 * OFREP's error answers for what goes wrong before or outside evaluation (the protocol's OpenAPI document): a body
 * that cannot be read or is not an evaluation request is 400 `PARSE_ERROR`, a context refused by its schema 400
 * `INVALID_CONTEXT` (single-flag answers carry the `key`); no credentials at all is 401; a failure on the server is
 * `{ errorDetails }` with its status. Anything else (a refused key: 403, a body over the limit: 413) keeps the
 * core's error body.
 */
export function ofrepErrorResponse(error: HttpError, request: CoreRequest, params: Record<string, string>): CoreResponse | undefined {
  const key = params['key'] === undefined ? {} : { key: params['key'] };
  if (error.status === 400) {
    const context = Object.keys(error.issues ?? {}).some((path) => path === 'context' || path.startsWith('context.'));
    return jsonResponse(400, { ...key, errorCode: context ? 'INVALID_CONTEXT' : 'PARSE_ERROR', errorDetails: details(error) });
  }
  if (error.status === 403 && withoutCredentials(request)) {
    return errorResponse(new HttpError(401, 'unauthenticated', 'An SDK key is required: Authorization: Bearer <key>'));
  }
  if (error.status >= 500) return jsonResponse(error.status, { errorDetails: error.message });
  return undefined;
}
