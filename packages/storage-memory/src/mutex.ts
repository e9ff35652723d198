/** A FIFO async mutex: `lock()` resolves, in call order, to the function that releases it. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => held);
    return previous.then(() => release);
  }
}
