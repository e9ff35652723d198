/**
 * Response bytes written into large slabs, a slice each. A slice is never written again once handed out: the
 * socket may still be sending it after the handler returns, and it keeps its slab alive until then.
 */
export class ByteSlab {
  private slab: Buffer;
  private offset = 0;

  constructor(private readonly size = 256 * 1024) {
    this.slab = Buffer.allocUnsafeSlow(size);
  }

  /** `parts` as one byte sequence (strings as UTF-8); `maxBytes` bounds its length (a string counts 3 bytes a unit). */
  write(parts: ReadonlyArray<string | Uint8Array>, maxBytes: number): Buffer {
    let slab = this.slab;
    let start = this.offset;
    if (maxBytes > this.size >>> 2) {
      slab = Buffer.allocUnsafeSlow(maxBytes);
      start = 0;
    } else if (maxBytes > this.size - start) {
      slab = this.slab = Buffer.allocUnsafeSlow(this.size);
      start = 0;
    }
    let at = start;
    for (const part of parts) {
      if (typeof part === 'string') at += slab.write(part, at, 'utf8');
      else {
        slab.set(part, at);
        at += part.length;
      }
    }
    if (slab === this.slab) this.offset = (at + 7) & ~7;
    return slab.subarray(start, at);
  }
}
