/**
 * Response bytes written into large slabs, a slice each. A slice is never written again while it may still be
 * read: the socket may be sending it after the handler returns. Only the latest slice can be handed back
 * (`release`, once its bytes are with the operating system), and then the next body reuses its bytes: under load
 * each answer is sent before the next request is read, so bodies keep landing on the same few cache-warm pages
 * instead of walking through fresh memory.
 */
export class ByteSlab {
  private slab: Buffer;
  private offset = 0;
  /** Where the latest slice of the current slab starts, or -1 when it is released or in another slab. */
  private latest = -1;
  /** The latest slice's check that it has been sent (`release` with `sent`), asked before the next write. */
  private sent: (() => boolean) | undefined;

  constructor(private readonly size = 256 * 1024) {
    this.slab = Buffer.allocUnsafeSlow(size);
  }

  /**
   * `parts` as one byte sequence (strings as UTF-8); `maxBytes` bounds its length (a string counts 3 bytes a unit).
   * With `separator`, that byte goes between each two parts of `parts[from]` to `parts[to - 1]` (a list's commas,
   * written here rather than kept in front of each item, which then needed a trimmed copy for the first one).
   */
  write(parts: ReadonlyArray<string | Uint8Array>, maxBytes: number, separator = -1, from = 0, to = 0): Buffer {
    if (this.sent !== undefined) this.settle();
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
    for (let n = 0; n < parts.length; n++) {
      const part = parts[n]!;
      if (n > from && n < to) slab[at++] = separator;
      if (typeof part === 'string') at += slab.write(part, at, 'utf8');
      else {
        slab.set(part, at);
        at += part.length;
      }
    }
    if (slab === this.slab) {
      this.offset = (at + 7) & ~7;
      this.latest = start;
    }
    return slab.subarray(start, at);
  }

  /**
   * Hands back a slice nobody reads any more, or, with `sent`, one that nobody reads once `sent()` is true: the
   * next write asks it. Only the latest slice of the current slab is taken back (its bytes become the next
   * slice's); any other is left alone, as if never released.
   */
  release(slice: Buffer, sent?: () => boolean): void {
    if (slice.buffer !== this.slab.buffer || slice.byteOffset !== this.latest) return;
    if (sent) {
      this.sent = sent;
      return;
    }
    this.offset = this.latest;
    this.latest = -1;
  }

  /** The pending check, asked once: still being sent means the bytes stay the socket's, as if never released. */
  private settle(): void {
    const sent = this.sent!;
    this.sent = undefined;
    if (this.latest !== -1 && sent()) this.offset = this.latest;
    this.latest = -1;
  }
}
