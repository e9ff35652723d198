import type { ChangeListener, ChangeNotice } from '@flagmount/core';
import { describeError, type StorageLogger } from './logger.js';

/**
 * Where a notice came from:
 * - `commit`: published inside a transaction that committed (this process, or another one through the database);
 * - `explicit`: `Storage.publishChange` outside a transaction — always delivered, even when the version did not rise
 *   (after a restore it may have fallen);
 * - `poll`: the safety-net poll saw a version rise that no notice announced.
 */
export type NoticeSource = 'commit' | 'explicit' | 'poll';

interface Known {
  version: number;
  /** The poll announced this version: a late notice for it is a duplicate. */
  viaPoll: boolean;
}

/**
 * Fans committed changes out to `onChange` listeners and remembers the newest version seen per environment, so the
 * poll only speaks up about rises that nothing else announced.
 */
export class ChangeHub {
  readonly #listeners = new Set<ChangeListener>();
  readonly #known = new Map<string, Known>();
  #baselined = false;

  constructor(private readonly logger: StorageLogger) {}

  subscribe(listener: ChangeListener): () => void {
    // Wrapped so that subscribing the same function twice yields two independent subscriptions.
    const entry: ChangeListener = (notice) => listener(notice);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  emit(notice: ChangeNotice, source: NoticeSource): void {
    const known = this.#known.get(notice.envId);
    if (source === 'commit' && known?.viaPoll && notice.version <= known.version) {
      // The poll got there first; announcing the same version twice would only make listeners reload twice.
      this.#known.set(notice.envId, { version: known.version, viaPoll: false });
      return;
    }
    if (source === 'poll' && known && notice.version <= known.version) return;
    if (!known || notice.version >= known.version || source !== 'commit') {
      this.#known.set(notice.envId, { version: notice.version, viaPoll: source === 'poll' });
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener({ envId: notice.envId, version: notice.version });
      } catch (error) {
        // A listener's failure is its own; it must not fail the commit that already happened.
        this.logger.warn('storage change listener threw', { ...describeError(error), envId: notice.envId });
      }
    }
  }

  /**
   * Feeds a poll result. The first one only records the baseline: whatever happened before this store started
   * watching is already in what its user loaded.
   */
  observe(versions: readonly ChangeNotice[]): void {
    const first = !this.#baselined;
    this.#baselined = true;
    for (const { envId, version } of versions) {
      const known = this.#known.get(envId);
      if (first && !known) {
        this.#known.set(envId, { version, viaPoll: false });
        continue;
      }
      // An environment first seen after the baseline is new: announce it whatever its version (even 0).
      if (!known || version > known.version) this.emit({ envId, version }, 'poll');
    }
  }
}
