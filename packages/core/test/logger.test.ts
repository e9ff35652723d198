import { describe, expect, it } from 'vitest';
import { normalizeLogger } from '../src/logger.js';

type Call = unknown[];

/** A logger whose level methods record their arguments. */
function recording(extra: Record<string, unknown> = {}): { calls: Call[]; logger: Record<string, unknown> } {
  const calls: Call[] = [];
  const method = (...args: unknown[]) => void calls.push(args);
  return { calls, logger: { debug: method, info: method, warn: method, error: method, ...extra } };
}

describe('normalizeLogger', () => {
  it('calls console-style loggers (message, fields)', () => {
    const { calls, logger } = recording();
    normalizeLogger(logger).warn('flagmount: x', { a: 1 });
    normalizeLogger(logger).info('plain');
    expect(calls).toEqual([['flagmount: x', { a: 1 }], ['plain']]);
  });

  it('calls pino- and bunyan-style loggers (fields, message), which drop fields given second', () => {
    const pino = recording({ child: () => undefined, bindings: () => ({}) });
    normalizeLogger(pino.logger).error('boom', { envId: 'e' });
    const bunyan = recording({ child: () => undefined, fields: { name: 'app' } });
    normalizeLogger(bunyan.logger).warn('careful', { n: 2 });
    expect(pino.calls).toEqual([[{ envId: 'e' }, 'boom']]);
    expect(bunyan.calls).toEqual([[{ n: 2 }, 'careful']]);
  });

  it('takes one function for every level, with the level last', () => {
    const calls: Call[] = [];
    const log = normalizeLogger((message, fields, level) => void calls.push([level, message, fields]));
    log.debug('d');
    log.error('e', { x: 1 });
    expect(calls).toEqual([['debug', 'd', undefined], ['error', 'e', { x: 1 }]]);
  });

  it('never lets a throwing logger or a missing level reach the caller', () => {
    const log = normalizeLogger({ warn: () => { throw new Error('broken'); } });
    expect(() => log.warn('x', { a: 1 })).not.toThrow();
    expect(() => log.error('y')).not.toThrow();
    expect(() => normalizeLogger(() => { throw new Error('broken'); }).info('z')).not.toThrow();
  });
});
