/** Thrown by a store when an insert would break a unique key. The core turns it into 400 `not_possible`. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Thrown by a store when a row that must exist does not (e.g. `bumpVersion` of an unknown environment). */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * Thrown (or wrapped) by a store when the database cannot be reached or refuses work for reasons outside the
 * request: the core answers 503 and keeps serving flags from its last snapshot.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
