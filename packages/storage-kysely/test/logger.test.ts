import { describe, expect, it } from 'vitest';
import { toLogger } from '../src/logger.js';

describe('toLogger', () => {
  it("never throws from a host's broken logger: the store logs from driver callbacks, where a throw would crash the host", () => {
    const logger = toLogger({
      error: () => {
        throw new Error('logger broke');
      },
    });
    expect(() => logger.error('pg client error', { error: 'terminated' })).not.toThrow();
    expect(() => logger.warn('no warn method given')).not.toThrow();
  });

  it('reads loggers as the core does: (fields, message) for pino-style loggers, or one function for every level', () => {
    const seen: unknown[] = [];
    toLogger((message, fields, level) => void seen.push([level, message, fields])).info('hello', { a: 1 });
    expect(seen).toEqual([['info', 'hello', { a: 1 }]]);
  });
});
