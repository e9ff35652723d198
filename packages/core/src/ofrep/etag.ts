import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import type { CoreRequest, CoreResponse } from '../http/types.js';
import type { OperationDoc } from '../openapi/annotations.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** `"abc"`, `W/"abc"`, `*`: a weak comparison, as If-None-Match asks for (RFC 9110, 13.1.2). */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * A JSON answer tagged with a hash of its own bytes, or a 304 when the request's If-None-Match holds that tag: the
 * OFREP routes that providers poll (bulk evaluation, configuration) answer this way.
 */
export function answerWithEtag(request: CoreRequest, text: string): CoreResponse {
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  const headers = { etag, 'cache-control': 'private, no-cache' };
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return { status: 304, headers };
  return { status: 200, headers: { 'content-type': JSON_TYPE, ...headers }, body: text };
}

/** The OpenAPI side of `answerWithEtag`: If-None-Match in, ETag on the 200, the 304, and 401 without a key. */
export function etagDocs(ok: { description: string; schema: TSchema }): Pick<OperationDoc, 'description' | 'headers'> & { responses: NonNullable<OperationDoc['responses']> } {
  return {
    description: 'Answers 304 when If-None-Match carries the ETag of the same answer.',
    headers: { 'If-None-Match': { description: 'ETag of a previous answer', schema: Type.String() } },
    responses: {
      '200': { ...ok, headers: { ETag: { description: 'Entity tag of this answer', schema: Type.String() } } },
      '304': { description: 'Not modified: the answer has the ETag sent in If-None-Match' },
      '401': { description: 'No SDK key was sent' },
    },
  };
}
