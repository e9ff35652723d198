interface Waiter {
  version: number;
  resolve: () => void;
}

/** Requests parked until an environment reaches a flag-state version (`waitForVersion`). */
export class VersionWaiters {
  private readonly byEnv = new Map<string, Set<Waiter>>();

  wait(envId: string, version: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const set = this.byEnv.get(envId) ?? new Set<Waiter>();
      this.byEnv.set(envId, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(waiter);
        if (!set.size) this.byEnv.delete(envId);
        resolve();
      };
      const waiter: Waiter = { version, resolve: done };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', done, { once: true });
      set.add(waiter);
    });
  }

  /** Requests parked now, all environments together. */
  get size(): number {
    let count = 0;
    for (const set of this.byEnv.values()) count += set.size;
    return count;
  }

  advance(envId: string, version: number): void {
    for (const waiter of [...(this.byEnv.get(envId) ?? [])]) if (waiter.version <= version) waiter.resolve();
  }

  releaseAll(): void {
    for (const set of [...this.byEnv.values()]) for (const waiter of [...set]) waiter.resolve();
  }
}
