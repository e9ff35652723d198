/** The SHA-NI addon: it built, it loaded, and the CPU has SHA-NI. */
export interface Sha256Native {
  readonly accelerated: true;
  /**
   * Returns `firstWord()`, the first word of SHA-256 of `block` as an int32, for whatever the first 16 elements of
   * `block` hold when it is called: one SHA-256 block as big-endian words, padding and length included. The
   * function keeps `block` alive. Throws a TypeError for anything but an Int32Array of at least 16 elements.
   */
  attach(block: Int32Array): () => number;
}

/** The addon, or null: FLAGMOUNT_NATIVE_HASH=0, no build, a load failure, or a CPU without SHA-NI. */
export function load(): Sha256Native | null;
