import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import { contextFromQuery } from '../../src/runtime/context/query-context.js';

const q = (...pairs: Array<[string, string]>) => pairs;

function fails(pairs: Array<[string, string]>): HttpError {
  try {
    contextFromQuery(pairs);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return error as HttpError;
  }
  throw new Error('expected a 400');
}

describe('contextJson', () => {
  it('carries the whole context, arrays and one level of nesting included', () => {
    const context = { user: { id: 'u1', roles: ['a', 'b'], profile: { tier: 'gold', tags: ['x'] } }, company: { id: 7 }, other: { n: null } };
    expect(contextFromQuery(q(['contextJson', JSON.stringify(context)]))).toEqual(context);
  });

  it('reads lone surrogates as U+FFFD, as JSON bodies are read (stored attributes hold them so)', () => {
    const text = '{"user":{"id":"u\\ud800","k\\udc00":"v"},"other":{"ok":"\\ud83d\\ude00"}}';
    expect(contextFromQuery(q(['contextJson', text]))).toEqual({ user: { id: 'u\ufffd', 'k\ufffd': 'v' }, other: { ok: '😀' } });
  });

  it('refuses a context nested thousands of levels deep with an escape in it as a 400, never a stack overflow', () => {
    const n = 8000;
    const text = `{"user":{"id":"\\ud800","x":${'['.repeat(n)}${']'.repeat(n)}}}`;
    expect(fails(q(['contextJson', text])).status).toBe(400);
  });

  it('accepts exactly 16384 bytes and refuses 16385 (UTF-8 bytes, not characters)', () => {
    const base = JSON.stringify({ user: { id: 'u', pad: '' } });
    const exact = JSON.stringify({ user: { id: 'u', pad: 'x'.repeat(16384 - base.length) } });
    expect(Buffer.byteLength(exact)).toBe(16384);
    expect(contextFromQuery(q(['contextJson', exact])).user?.['pad']).toHaveLength(16384 - base.length);
    const over = JSON.stringify({ user: { id: 'u', pad: 'x'.repeat(16385 - base.length) } });
    expect(fails(q(['contextJson', over])).issues).toHaveProperty('contextJson');
    // 'é' is two bytes: 8192 of them are 16384 bytes of padding alone.
    const multibyte = JSON.stringify({ user: { pad: 'é'.repeat(8192) } });
    expect(multibyte.length).toBeLessThan(16384);
    fails(q(['contextJson', multibyte]));
  });

  it('is refused when sent twice, or with context / context.* parameters', () => {
    fails(q(['contextJson', '{}'], ['contextJson', '{}']));
    fails(q(['contextJson', '{}'], ['context.user.id', 'u1']));
    fails(q(['contextJson', '{}'], ['context', '{}']));
  });

  it('must be valid JSON holding an object', () => {
    fails(q(['contextJson', '{user:']));
    fails(q(['contextJson', '[]']));
    fails(q(['contextJson', 'null']));
    fails(q(['contextJson', '"x"']));
  });

  it('enforces the context rules with field paths', () => {
    expect(fails(q(['contextJson', JSON.stringify({ user: { id: ['a'] } })])).issues).toHaveProperty(['contextJson.user.id']);
    fails(q(['contextJson', JSON.stringify({ company: { id: { x: 1 } } })]));
    fails(q(['contextJson', JSON.stringify({ user: { id: true } })]));
    fails(q(['contextJson', JSON.stringify({ user: { a: { b: { c: 1 } } } })]));
    fails(q(['contextJson', JSON.stringify({ other: { a: { b: { c: 1 } } } })]));
    fails(q(['contextJson', JSON.stringify({ user: 'u1' })]));
    fails(q(['contextJson', JSON.stringify({ extra: {} })]));
    expect(contextFromQuery(q(['contextJson', JSON.stringify({ user: { id: 12, ok: true, n: null, f: 1.5 } })]))).toEqual({
      user: { id: 12, ok: true, n: null, f: 1.5 },
    });
  });

  it('accepts an empty object and no context at all', () => {
    expect(contextFromQuery(q(['contextJson', '{}']))).toEqual({});
    expect(contextFromQuery(q())).toEqual({});
  });
});

describe('legacy context.* parameters', () => {
  it('rebuild the nested context with string values', () => {
    expect(
      contextFromQuery(q(['context.user.id', '42'], ['context.company.id', 'acme'], ['context.company.plan', 'pro'], ['context.other.page', 'x'])),
    ).toEqual({ user: { id: '42' }, company: { id: 'acme', plan: 'pro' }, other: { page: 'x' } });
  });

  it("rebuild the browser SDK's indexed items into arrays", () => {
    const context = contextFromQuery(
      q(['context.user.id', 'u1'], ['context.user.roles.1', 'b'], ['context.user.roles.0', 'a'], ['context.user.profile.tags.0', 't']),
    );
    expect(context).toEqual({ user: { id: 'u1', roles: ['a', 'b'], profile: { tags: ['t'] } } });
  });

  it('keep indexes that do not run from 0 as object members, never a 400', () => {
    expect(contextFromQuery(q(['context.user.roles.1', 'b']))).toEqual({ user: { roles: { '1': 'b' } } });
    expect(contextFromQuery(q(['context.user.roles.0', 'a'], ['context.user.roles.2', 'c']))).toEqual({
      user: { roles: { '0': 'a', '2': 'c' } },
    });
    expect(contextFromQuery(q(['context.user.roles.01', 'a']))).toEqual({ user: { roles: { '01': 'a' } } });
  });

  it('ignore unknown parameters and never reach a prototype', () => {
    expect(contextFromQuery(q(['reflag-sdk-version', 'browser-sdk/1.6.1'], ['publishableKey', 'pk'], ['contexts', 'x']))).toEqual({});
    const context = contextFromQuery(q(['context.user.__proto__', 'x'], ['context.user.id', 'u']));
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    expect(Object.getPrototypeOf(context.user)).toBe(Object.prototype);
  });

  it('refuse what is not a context', () => {
    fails(q(['context.user', 'u1'], ['context.user.id', 'u1']));
    fails(q(['context.user.id', 'a'], ['context.user.id', 'b']));
    fails(q(['context.user..id', 'a']));
    fails(q(['context.user.a.b.c', 'deep']));
    fails(q(['context.tenant.id', 't']));
  });

  it('read a bare context=<json> like contextJson, and refuse it beside context.*', () => {
    expect(contextFromQuery(q(['context', '{"user":{"id":"u"}}']))).toEqual({ user: { id: 'u' } });
    fails(q(['context', '{}'], ['context.user.id', 'u']));
    fails(q(['context', '{}'], ['context', '{}']));
  });
});
