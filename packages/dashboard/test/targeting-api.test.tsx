import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../src/api/client.js';
import { isConflict, putTargeting } from '../src/api/targeting.js';

/** A fetch that answers from a list and records the bodies it was sent. */
function fakeFetch(answers: Array<{ status: number; body: unknown }>) {
  const sent: unknown[] = [];
  const fetcher = (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    const next = answers.shift()!;
    return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { sent, api: createApiClient('/flags', () => 'key', fetcher) };
}

const OK = { status: 200, body: { targeting: { version: 4 }, flagStateVersion: 9 } };
const body = { rules: [], ifVersion: 3 };

describe('targeting writes with ifVersion', () => {
  it('sends ifVersion, and a mismatch (not_possible on ifVersion) is a conflict, not retried', async () => {
    const { api, sent } = fakeFetch([{ status: 400, body: { error: { code: 'not_possible', message: 'changed' }, issues: { ifVersion: ['is 4'] } } }]);
    const error = await putTargeting(api, 'x', body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isConflict(error)).toBe(true);
    expect(sent).toEqual([body]);
  });

  it('a server from before ifVersion (unknown property) gets the same write without it', async () => {
    const { api, sent } = fakeFetch([{ status: 400, body: { error: { code: 'invalid_request', message: 'bad' }, issues: { ifVersion: ['Unexpected property'] } } }, OK]);
    await expect(putTargeting(api, 'x', body)).resolves.toMatchObject({ targeting: { version: 4 } });
    expect(sent).toEqual([body, { rules: [] }]);
  });

  it('other validation errors are not retried', async () => {
    const { api, sent } = fakeFetch([{ status: 400, body: { error: { code: 'invalid_request', message: 'bad' }, issues: { ifVersion: ['x'], 'rules.0.filter': ['y'] } } }]);
    const error = await putTargeting(api, 'x', body).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(false);
    expect((error as ApiError).issuesAt('rules.0.filter')).toEqual(['y']);
    expect(sent).toHaveLength(1);
  });
});
