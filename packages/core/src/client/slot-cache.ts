/** Slots per set: a new key evicts the least recently touched of its set's four, not whichever key shares its hash. */
const WAYS = 4;

/** Where a check's fields live in either cache's slot (the entity cache holds each entity's first flag inline). */
export const VERSION = 0;
/** When the check was last counted with this entity as the context's owner (ms); -Infinity never. */
export const COUNTED_AT = 1;
/** The serial of the pending counts row of this entity and flag (see PendingTable), -1 none. */
export const TALLY = 2;
export const CONFIG = 3;
export const FLAG = 0;
export const RESULT = 1;
export const COMPANY_OF_CHECK = 2;

/** A stored key: the hash with the kind (user, company, anonymous; check or config check) in its low three bits. */
export const keyOf = (hash: number, kind: number): number => (hash & ~7) | kind;

/**
 * A bounded set-associative cache in flat arrays: the in-process client's memory of the users, companies and checks
 * it met. A new key writes into preallocated slots and allocates nothing, so a flood of new users leaves no objects
 * for the young-generation GC to copy. A lookup reads one line of `keys` and compares ids only where a key matches;
 * a slot's numbers sit together in `meta`, its references together in `refs`, so a new entity touches few cache
 * lines. The table grows by doubling rather than evict, up to `maxSize`; then a new key evicts within its set.
 */
export abstract class SlotCache {
  readonly ids: Array<string | null>;
  readonly keys: Int32Array;
  /**
   * When the slot was last found or claimed, on a counter (not the clock, which many calls of one synchronous stretch
   * share): the eviction order within a set.
   */
  readonly touched: Float64Array;
  private tick = 0;
  readonly meta: Float64Array;
  readonly refs: unknown[];
  private used = 0;
  private readonly shift: number;

  constructor(
    readonly size: number,
    readonly maxSize: number,
    readonly metaStride: number,
    readonly refStride: number,
    /** A free slot's numbers. */
    private readonly blank: readonly number[],
  ) {
    this.ids = new Array<string | null>(size).fill(null);
    this.keys = new Int32Array(size);
    this.touched = new Float64Array(size);
    this.meta = new Float64Array(size * metaStride);
    this.refs = new Array<unknown>(size * refStride).fill(null);
    // Fibonacci hashing keeps the top bits: log2(sets) of them (at least 1, as `>>> 32` would shift nothing).
    this.shift = 32 - Math.max(1, Math.log2(size / WAYS));
  }

  /** The slot of (key, id), and of `flag` unless null; -1 when not held. */
  find(key: number, id: string, flag: string | null): number {
    const first = (Math.imul(key, 0x9e3779b1) >>> this.shift) * WAYS;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.keys[slot] === key && this.ids[slot] === id && (flag === null || this.refs[slot * this.refStride + FLAG] === flag)) {
        this.touched[slot] = ++this.tick;
        return slot;
      }
    }
    return -1;
  }

  /** A blank slot for a key `find` just missed: a free one of its set, else the least recently touched (forgotten). */
  claim(key: number, id: string, flag: string | null): number {
    const first = (Math.imul(key, 0x9e3779b1) >>> this.shift) * WAYS;
    let slot = first;
    for (let s = first; s < first + WAYS; s++) {
      if (this.ids[s] === null) {
        slot = s;
        this.used++;
        break;
      }
      if (this.touched[s]! < this.touched[slot]!) slot = s;
    }
    this.ids[slot] = id;
    this.keys[slot] = key;
    this.touched[slot] = ++this.tick;
    const m = slot * this.metaStride;
    for (let i = 0; i < this.metaStride; i++) this.meta[m + i] = this.blank[i]!;
    const r = slot * this.refStride;
    for (let i = 0; i < this.refStride; i++) this.refs[r + i] = null;
    this.refs[r + FLAG] = flag;
    return slot;
  }

  /**
   * Whether the owner should replace this cache by a grown one before claiming a slot for `key`: there is room to
   * double, and the table is three quarters used or the key's set is full. Below `maxSize` nothing is evicted.
   */
  crowded(key: number): boolean {
    if (this.size >= this.maxSize) return false;
    if (this.used * 4 > this.size * 3) return true;
    const first = (Math.imul(key, 0x9e3779b1) >>> this.shift) * WAYS;
    for (let slot = first; slot < first + WAYS; slot++) if (this.ids[slot] === null) return false;
    return true;
  }

  /** Copies every live slot into `into` (a larger cache of the same layout); returns it. */
  protected copyInto<C extends SlotCache>(into: C): C {
    for (let slot = 0; slot < this.size; slot++) {
      const id = this.ids[slot];
      if (id === null || id === undefined) continue;
      const flag = this.refs[slot * this.refStride + FLAG] as string | null;
      const to = into.claim(this.keys[slot]!, id, flag);
      into.touched[to] = this.touched[slot]!;
      into.meta.set(this.meta.subarray(slot * this.metaStride, (slot + 1) * this.metaStride), to * this.metaStride);
      for (let i = 0; i < this.refStride; i++) into.refs[to * this.refStride + i] = this.refs[slot * this.refStride + i];
    }
    into.tick = this.tick;
    return into;
  }
}
