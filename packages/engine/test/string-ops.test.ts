import { describe, expect, it } from 'vitest';
import { ctx, matches } from './helpers.js';

describe('IS / IS_NOT', () => {
  it('compares the flat string value exactly', () => {
    expect(matches(ctx('company.plan', 'IS', ['enterprise']), { company: { plan: 'enterprise' } })).toBe(true);
    expect(matches(ctx('company.plan', 'IS', ['enterprise']), { company: { plan: 'Enterprise' } })).toBe(false);
    expect(matches(ctx('company.plan', 'IS_NOT', ['enterprise']), { company: { plan: 'Enterprise' } })).toBe(true);
    expect(matches(ctx('company.plan', 'IS_NOT', ['enterprise']), { company: { plan: 'enterprise' } })).toBe(false);
  });

  it('stringifies numbers and booleans as the library does', () => {
    expect(matches(ctx('company.id', 'IS', ['123']), { company: { id: 123 } })).toBe(true);
    expect(matches(ctx('company.id', 'IS', ['123.0']), { company: { id: 123 } })).toBe(false);
    expect(matches(ctx('company.size', 'IS', ['1e+21']), { company: { size: 1e21 } })).toBe(true);
    expect(matches(ctx('company.id', 'IS', ['0']), { company: { id: -0 } })).toBe(true);
    expect(matches(ctx('user.beta', 'IS', ['true']), { user: { beta: true } })).toBe(true);
  });

  it('null and {} are the empty string; IS_NOT matches them', () => {
    expect(matches(ctx('user.name', 'IS', ['']), { user: { name: null } })).toBe(true);
    expect(matches(ctx('user.name', 'IS_NOT', ['x']), { user: { name: null } })).toBe(true);
    expect(matches(ctx('user.meta', 'IS', ['']), { user: { meta: {} } })).toBe(true);
  });

  it('uses the first value only', () => {
    expect(matches(ctx('company.plan', 'IS', ['a', 'b']), { company: { plan: 'b' } })).toBe(false);
  });
});

describe('CONTAINS / NOT_CONTAINS on strings', () => {
  it('is a case-insensitive substring test', () => {
    expect(matches(ctx('user.email', 'CONTAINS', ['@ACME.']), { user: { email: 'jo@acme.com' } })).toBe(true);
    expect(matches(ctx('user.email', 'CONTAINS', ['@other']), { user: { email: 'jo@acme.com' } })).toBe(false);
    expect(matches(ctx('user.email', 'NOT_CONTAINS', ['@other']), { user: { email: 'jo@acme.com' } })).toBe(true);
    expect(matches(ctx('user.email', 'NOT_CONTAINS', ['ACME']), { user: { email: 'jo@acme.com' } })).toBe(false);
  });

  it('uses toLowerCase on both sides, unicode included', () => {
    expect(matches(ctx('user.city', 'CONTAINS', ['ÜBER']), { user: { city: 'Überlingen' } })).toBe(true);
    expect(matches(ctx('user.city', 'CONTAINS', ['']), { user: { city: 'x' } })).toBe(true);
  });

  it('looks into stringified numbers', () => {
    expect(matches(ctx('company.id', 'CONTAINS', ['23']), { company: { id: 1234 } })).toBe(true);
  });
});

describe('ANY_OF / NOT_ANY_OF', () => {
  it('tests membership of the flat value', () => {
    const filter = ctx('company.plan', 'ANY_OF', ['pro', 'enterprise']);
    expect(matches(filter, { company: { plan: 'enterprise' } })).toBe(true);
    expect(matches(filter, { company: { plan: 'free' } })).toBe(false);
    expect(matches(ctx('company.plan', 'NOT_ANY_OF', ['pro', 'enterprise']), { company: { plan: 'free' } })).toBe(true);
    expect(matches(ctx('company.plan', 'NOT_ANY_OF', ['pro']), { company: { plan: 'pro' } })).toBe(false);
  });

  it('works the same with long value lists (set lookup)', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `u${i}`);
    expect(matches(ctx('user.id', 'ANY_OF', ids), { user: { id: 'u42' } })).toBe(true);
    expect(matches(ctx('user.id', 'ANY_OF', ids), { user: { id: 'u50' } })).toBe(false);
    expect(matches(ctx('user.id', 'NOT_ANY_OF', ids), { user: { id: 'u50' } })).toBe(true);
  });

  it('matches numeric ids against their string form', () => {
    expect(matches(ctx('user.id', 'ANY_OF', ['7', '8']), { user: { id: 8 } })).toBe(true);
  });
});
