/**
 * The errors a store throws to tell the core what happened. A store may load another copy of `@flagmount/core`
 * than the host does (its CommonJS build next to the host's ESM one, or a second install), and each copy has its
 * own classes: `instanceof` therefore checks a brand registered under a global symbol, so an error of any copy is
 * recognised by every other.
 */
function storeErrorClass<N extends string>(name: N) {
  const brand = Symbol.for(`@flagmount/core:${name}`);
  class StoreError extends Error {
    override readonly name: N = name;
    static override [Symbol.hasInstance](value: unknown): boolean {
      return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
    }
  }
  Object.defineProperty(StoreError.prototype, brand, { value: true });
  // What stack traces and debuggers show for the class.
  Object.defineProperty(StoreError, 'name', { value: name });
  return StoreError;
}

/** Thrown by a store when an insert would break a unique key. The core turns it into 400 `not_possible`. */
export const ConflictError = storeErrorClass('ConflictError');
export type ConflictError = InstanceType<typeof ConflictError>;

/** Thrown by a store when a row that must exist does not (e.g. `bumpVersion` of an unknown environment). */
export const NotFoundError = storeErrorClass('NotFoundError');
export type NotFoundError = InstanceType<typeof NotFoundError>;

/**
 * Thrown (or wrapped) by a store when the database cannot be reached or refuses work for reasons outside the
 * request: the core answers 503 and keeps serving flags from its last snapshot.
 */
export const StorageUnavailableError = storeErrorClass('StorageUnavailableError');
export type StorageUnavailableError = InstanceType<typeof StorageUnavailableError>;
