/**
 * The errors a store throws to tell the core what happened. A store may load another copy of `@flagmount/core`
 * than the host does (its CommonJS build next to the host's ESM one, or a second install), and each copy has its
 * own classes: `instanceof` therefore checks a brand registered under a global symbol, so an error of any copy is
 * recognised by every other.
 */
function branded<T extends abstract new (...args: never[]) => Error>(base: T, key: string): T {
  const brand = Symbol.for(`@flagmount/core:${key}`);
  Object.defineProperty(base.prototype, brand, { value: true });
  Object.defineProperty(base, Symbol.hasInstance, {
    value: (value: unknown) => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  });
  return base;
}

/** Thrown by a store when an insert would break a unique key. The core turns it into 400 `not_possible`. */
export const ConflictError = branded(
  class ConflictError extends Error {
    override readonly name = 'ConflictError';
    constructor(message: string, options?: { cause?: unknown }) {
      super(message, options);
    }
  },
  'ConflictError',
);
export type ConflictError = InstanceType<typeof ConflictError>;

/** Thrown by a store when a row that must exist does not (e.g. `bumpVersion` of an unknown environment). */
export const NotFoundError = branded(
  class NotFoundError extends Error {
    override readonly name = 'NotFoundError';
  },
  'NotFoundError',
);
export type NotFoundError = InstanceType<typeof NotFoundError>;

/**
 * Thrown (or wrapped) by a store when the database cannot be reached or refuses work for reasons outside the
 * request: the core answers 503 and keeps serving flags from its last snapshot.
 */
export const StorageUnavailableError = branded(
  class StorageUnavailableError extends Error {
    override readonly name = 'StorageUnavailableError';
    constructor(message: string, options?: { cause?: unknown }) {
      super(message, options);
    }
  },
  'StorageUnavailableError',
);
export type StorageUnavailableError = InstanceType<typeof StorageUnavailableError>;
