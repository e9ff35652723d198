/**
 * A map that holds at most `2 × cap` entries in two generations: entries go into the young one, and when it is full
 * the old one is dropped whole and the young one takes its place. An entry read from the old generation stays there
 * (it is still found until the next turn), so a steady set of keys is kept while a flood of new keys (a million
 * distinct users in a loop) costs a bounded amount of memory and no per-entry bookkeeping, unlike an LRU.
 */
export class BoundedMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly cap: number) {}

  get(key: K): V | undefined {
    const found = this.young.get(key);
    return found !== undefined ? found : this.old.get(key);
  }

  /** Adds a key known to be absent (`get` just missed it): one lookup fewer than `set`. */
  add(key: K, value: V): void {
    if (this.young.size >= this.cap) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.cap && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
