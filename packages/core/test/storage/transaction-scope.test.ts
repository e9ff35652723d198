import { executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { TransactionScope } from '../../src/storage/transaction-scope.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('TransactionScope', () => {
  it('knows the transaction of the current call chain, and none outside it', async () => {
    const scopes = new TransactionScope<string>();
    expect(scopes.current()).toBeUndefined();
    const inside = await scopes.run('a', async () => {
      await tick();
      return scopes.current();
    });
    expect(inside).toBe('a');
    expect(scopes.current()).toBeUndefined();
  });

  it('keeps a running transaction’s scope when an overlapping one ends first', async () => {
    const scopes = new TransactionScope<string>();
    let releaseA!: () => void;
    const a = scopes.run('a', async () => {
      await new Promise<void>((resolve) => (releaseA = resolve));
      return scopes.current();
    });
    const b = await scopes.run('b', async () => scopes.current());
    expect(b).toBe('b');
    releaseA();
    expect(await a).toBe('a');
  });

  it('leaves no promise hook running once the last transaction has ended', async () => {
    // With promise hooks on (an enabled AsyncLocalStorage), a promise reaction runs in an async resource of its
    // own; with them off, it reports the id of the code that was running.
    const hooksOn = () => {
      const outer = executionAsyncId();
      return Promise.resolve().then(() => executionAsyncId() !== outer);
    };
    expect(await hooksOn()).toBe(false);
    const scopes = new TransactionScope<string>();
    expect(await scopes.run('a', hooksOn)).toBe(true);
    expect(await hooksOn()).toBe(false);
  });
});
