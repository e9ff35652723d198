import { ConflictError, NotFoundError, type Storage, type StorageDump } from '@flagmount/core';
import { expect } from 'vitest';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds; fails with `message` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, message: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await sleep(5);
  }
}

/** The rejection of `promise`, or a failure saying that it resolved. */
export async function rejection(promise: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.unreachable(`${what}: expected a rejection, but it resolved`);
}

export async function expectConflict(promise: Promise<unknown>, what: string): Promise<void> {
  const error = await rejection(promise, what);
  expect(error, `${what}: must reject with a ConflictError`).toBeInstanceOf(ConflictError);
}

export async function expectNotFound(promise: Promise<unknown>, what: string): Promise<void> {
  const error = await rejection(promise, what);
  expect(error, `${what}: must reject with a NotFoundError`).toBeInstanceOf(NotFoundError);
}

/** Asserts that nothing changed between two dumps. */
export function expectSameDump(after: StorageDump, before: StorageDump, what: string): void {
  expect(after, `${what}: the stored data changed`).toEqual(before);
}

export async function expectUnchanged(storage: Storage, before: StorageDump, what: string): Promise<void> {
  expectSameDump(await storage.dump(), before, what);
}

/** Code-unit string order (never locale-aware), as the suite expects stores to sort. */
export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Shuffles deterministically (so a failure reproduces) to insert rows out of their expected order. */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Runs `fn` for each item, one after another. */
export async function each<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (const item of items) await fn(item);
}
