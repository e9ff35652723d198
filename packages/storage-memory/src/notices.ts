import type { ChangeListener, ChangeNotice } from '@flagmount/core';

/** In-process change propagation: listeners get a copy of each notice; one that throws never stops the others. */
export class ChangeNotices {
  private readonly listeners = new Set<ChangeListener>();

  subscribe(listener: ChangeListener): () => void {
    // One entry per subscription, so subscribing the same function twice needs two unsubscribes.
    const entry: ChangeListener = (notice) => listener(notice);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  deliver(notices: readonly ChangeNotice[]): void {
    if (notices.length === 0 || this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    for (const notice of notices) {
      for (const listener of listeners) {
        try {
          listener({ envId: notice.envId, version: notice.version });
        } catch {
          // A listener's failure belongs to the listener: the commit has happened and other listeners must hear it.
        }
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
