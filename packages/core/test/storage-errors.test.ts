import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, StorageUnavailableError } from '../src/storage/errors.js';

describe('store errors', () => {
  it("are recognised across copies of the core (a store's CommonJS build beside the host's ESM one)", async () => {
    // A second copy of the module: what a store bundling or requiring its own @flagmount/core gets.
    const specifier = '../src/storage/errors.js?second-copy';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import('../src/storage/errors.js');
    expect(copy.StorageUnavailableError).not.toBe(StorageUnavailableError);
    expect(new copy.StorageUnavailableError('down')).toBeInstanceOf(StorageUnavailableError);
    expect(new StorageUnavailableError('down')).toBeInstanceOf(copy.StorageUnavailableError);
    expect(new copy.ConflictError('dup')).toBeInstanceOf(ConflictError);
    expect(new copy.NotFoundError('gone')).toBeInstanceOf(NotFoundError);
    // Each class is still its own.
    expect(new copy.ConflictError('dup')).not.toBeInstanceOf(StorageUnavailableError);
    expect(new Error('plain')).not.toBeInstanceOf(StorageUnavailableError);
    expect(null).not.toBeInstanceOf(ConflictError);
    const error = new StorageUnavailableError('down', { cause: 'x' });
    expect([error.name, error.message, error.cause, error instanceof Error]).toEqual(['StorageUnavailableError', 'down', 'x', true]);
  });
});
