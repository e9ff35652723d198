/** The SHA-NI addon: it built, it loaded, and the CPU has SHA-NI. */
export interface Sha256Native {
  readonly accelerated: true;
  /**
   * Returns `firstWord()`, the first word of SHA-256 of `block` as an int32, for whatever the first 16 elements of
   * `block` hold when it is called: one SHA-256 block as big-endian words, padding and length included. The
   * function keeps `block` alive. Throws a TypeError for anything but an Int32Array of at least 16 elements.
   */
  attach(block: Int32Array): () => number;
  /**
   * Returns `firstWords(valueLength)`, which writes into `out[i]` the first word of SHA-256 of slot i's prefix
   * followed by the first `valueLength` bytes of `value`, for every i of `out`, or 0 where the two do not fit one
   * block (more than 55 bytes). Slot i is bytes 64i to 64i + 63 of `prefixes`: the prefix's bytes, and its length in
   * the slot's last byte. The function keeps the three arrays alive; `firstWords` throws a RangeError for a length
   * outside 0–55. Throws a TypeError when `prefixes` is not a Uint8Array of 64 bytes per element of `out`, `value`
   * not a Uint8Array of at least 55 bytes, or `out` not an Int32Array. Missing from addons built before batches.
   */
  attachBatch?(prefixes: Uint8Array, value: Uint8Array, out: Int32Array): (valueLength: number) => void;
}

/** The addon, or null: FLAGMOUNT_NATIVE_HASH=0, no build, a load failure, or a CPU without SHA-NI. */
export function load(): Sha256Native | null;
