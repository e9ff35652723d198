/**
 * The spec's error body (management-api.md, "Errors"; the runtime API uses the same body, architecture.md):
 * `{ error: { code, message }, issues? }`, nothing else, `code` from the spec's enum, `issues` a map of dotted path
 * to an array of strings. Returns the problems found (empty when the response is a proper error response).
 */

/** error.code values listed by the spec. */
export const SPEC_ERROR_CODES = [
  'invalid_request',
  'not_found',
  'not_possible',
  'not_allowed',
  'not_available',
  'unknown_error',
  'unauthorized',
  'unauthenticated',
] as const;


export function errorBodyProblems(status: number, contentType: string | null | undefined, text: string | undefined): string[] {
  const problems: string[] = [];
  if (!/^application\/json\b/i.test(contentType ?? '')) problems.push(`content-type is ${JSON.stringify(contentType)}, not JSON`);
  let body: unknown;
  try {
    body = JSON.parse(text ?? '');
  } catch {
    return [...problems, `body is not JSON: ${JSON.stringify((text ?? '').slice(0, 200))}`];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [...problems, 'body is not an object'];
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => k !== 'error' && k !== 'issues');
  if (extra.length) problems.push(`unexpected members ${extra.join(', ')}`);
  const error = record['error'] as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) return [...problems, 'no error object'];
  const errorExtra = Object.keys(error).filter((k) => k !== 'code' && k !== 'message');
  if (errorExtra.length) problems.push(`unexpected error members ${errorExtra.join(', ')}`);
  const code = error['code'];
  const allowed = typeof code === 'string' && (SPEC_ERROR_CODES as readonly string[]).includes(code);
  if (!allowed) problems.push(`error.code ${JSON.stringify(code)} is not in the enum (status ${status})`);
  if (typeof error['message'] !== 'string' || !error['message']) problems.push('error.message is not a non-empty string');
  if ('issues' in record) {
    const issues = record['issues'];
    if (typeof issues !== 'object' || issues === null || Array.isArray(issues)) problems.push('issues is not an object');
    else {
      for (const [path, messages] of Object.entries(issues)) {
        if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string')) {
          problems.push(`issues[${JSON.stringify(path)}] is not an array of strings`);
        }
      }
    }
  }
  return problems;
}

/** The status ↔ code pairs architecture.md fixes; a pair outside this list is reported too. */
const STATUS_CODES: Record<number, string[]> = {
  400: ['invalid_request', 'not_possible'],
  401: ['unauthenticated'],
  403: ['unauthorized'],
  404: ['not_found'],
  405: ['not_allowed'],
  413: ['invalid_request'],
  503: ['not_available'],
};

export function statusCodeProblems(status: number, text: string | undefined): string[] {
  const expected = STATUS_CODES[status];
  if (!expected) return status >= 400 ? [`unexpected error status ${status}`] : [];
  try {
    const code = (JSON.parse(text ?? '') as { error?: { code?: unknown } }).error?.code;
    return expected.includes(code as string) ? [] : [`status ${status} with code ${JSON.stringify(code)}`];
  } catch {
    return [];
  }
}

/**
 * The OFREP routes answer their protocol's own failure body for a body that is no evaluation request (400
 * PARSE_ERROR), an unusable context (400 INVALID_CONTEXT) and an unknown flag (404 FLAG_NOT_FOUND): OpenFeature
 * providers parse exactly that shape. Everything else they answer (401/403, 413) carries the spec's body.
 */
const OFREP_CODES = ['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'GENERAL', 'FLAG_NOT_FOUND'];

export function ofrepFailureProblems(status: number, text: string | undefined): string[] | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || !('errorCode' in body)) return undefined;
  const problems: string[] = [];
  if (!OFREP_CODES.includes(body['errorCode'] as string)) problems.push(`OFREP errorCode ${JSON.stringify(body['errorCode'])}`);
  const expected = status === 400 ? ['INVALID_CONTEXT', 'PARSE_ERROR'] : status === 404 ? ['FLAG_NOT_FOUND'] : [];
  if (!expected.includes(body['errorCode'] as string)) {
    problems.push(`OFREP failure ${String(body['errorCode'])} with status ${status}`);
  }
  const extra = Object.keys(body).filter((k) => !['key', 'errorCode', 'errorDetails'].includes(k));
  if (extra.length) problems.push(`unexpected OFREP members ${extra.join(', ')}`);
  return problems;
}
