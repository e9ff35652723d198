import { readSnapshotSource } from './build-snapshot.js';
import type { Logger } from '../logger.js';
import { sha256Hex } from '../security/secrets.js';
import type { ChangeNotice, Storage } from '../storage/port.js';
import type { EnvironmentRecord, FlagRecord } from '../storage/records.js';
import { EnvironmentState } from './environment-state.js';
import { VersionWaiters } from './version-waiters.js';

export interface SdkKeyMatch {
  environment: EnvironmentRecord;
  keyKind: 'publishable' | 'secret';
}

/**
 * The compiled flag state of every environment, kept in memory and refreshed on change notices. Evaluation never
 * touches the store: if the store goes away, the last snapshot keeps serving.
 */
export class SnapshotCache {
  private readonly states = new Map<string, EnvironmentState>();
  private readonly keyIndex = new Map<string, { envId: string; keyKind: 'publishable' | 'secret' }>();
  /**
   * Keys already matched, as sent: a hit skips hashing (~2 µs of every SDK request). Only keys that matched get in,
   * so a flood of wrong keys cannot grow it, and any change to the index empties it.
   */
  private readonly matchedKeys = new Map<string, { envId: string; keyKind: 'publishable' | 'secret' }>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Reload requested while one was running: runs again right after it. */
  private readonly dirty = new Set<string>();
  /** Reload failed (store unavailable): retried by the timer, never at once (that would spin while the store is away). */
  private readonly failed = new Set<string>();
  private readonly waiters = new VersionWaiters();
  /**
   * The last flag rows read per app, by id. Every environment of an app reads the same rows; an unchanged row is
   * replaced by the one already held, so the environments' states share one copy instead of one each.
   */
  private readonly appFlags = new Map<string, Map<string, FlagRecord>>();
  private readonly listeners = new Set<(state: EnvironmentState) => void>();
  private readonly keyListeners = new Set<(envId: string) => void>();
  private unsubscribe: (() => void) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = this.storage.onChange((change) => this.onChange(change));
    const environments = await this.storage.environments.listAll();
    await Promise.all(environments.map((env) => this.reload(env.id)));
  }

  get(envId: string): EnvironmentState | undefined {
    return this.states.get(envId);
  }

  all(): EnvironmentState[] {
    return [...this.states.values()];
  }

  /**
   * Resolves an SDK key to its environment. An unknown key is looked up by its hash, which keeps the lookup
   * independent of the key's content; only a key that matched is remembered as sent.
   */
  resolveSdkKey(key: string): SdkKeyMatch | undefined {
    let hit = this.matchedKeys.get(key);
    if (!hit) {
      hit = this.keyIndex.get(sha256Hex(key));
      if (hit) this.matchedKeys.set(key, hit);
    }
    const state = hit && this.states.get(hit.envId);
    return hit && state ? { environment: state.environment, keyKind: hit.keyKind } : undefined;
  }

  /** Called with each new state (SSE push, in-process client events). */
  onUpdate(listener: (state: EnvironmentState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with the environment's id when its SDK keys changed (rotation) or it is gone (deleted). */
  onKeysChange(listener: (envId: string) => void): () => void {
    this.keyListeners.add(listener);
    return () => this.keyListeners.delete(listener);
  }

  /** Requests parked by `waitForVersion` right now (a gauge: each leaves on its version, its timeout or its client going away). */
  get pendingWaits(): number {
    return this.waiters.size;
  }

  /** Resolves once the environment's snapshot has version ≥ `version`, or after `timeoutMs` / abort. */
  async waitForVersion(envId: string, version: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const current = this.states.get(envId)?.version ?? -1;
    // Closed: no version will come, so the request answers now with what there is.
    if (current >= version || this.closed) return;
    // The notice may not have reached us (another replica, a lost NOTIFY): look at the store once as well.
    void this.reload(envId);
    await this.waiters.wait(envId, version, timeoutMs, signal);
  }

  /** Reloads now (coalesced): used after this process's own commits so the writer reads its writes. */
  reload(envId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const running = this.loading.get(envId);
    if (running) {
      this.dirty.add(envId);
      return running;
    }
    const task = this.load(envId).finally(() => {
      this.loading.delete(envId);
      if (this.dirty.delete(envId)) void this.reload(envId);
    });
    this.loading.set(envId, task);
    return task;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.waiters.releaseAll();
    this.listeners.clear();
    this.keyListeners.clear();
  }

  private onChange(change: ChangeNotice): void {
    const current = this.states.get(change.envId);
    // Equal versions still reload: key rotation and renames publish the unchanged version.
    if (current && current.version > change.version) return;
    void this.reload(change.envId);
  }

  private async load(envId: string): Promise<void> {
    try {
      // The version is read first, so the rows read after it are never older than the version they are served as.
      const environment = await this.storage.environments.get(envId);
      if (!environment) {
        this.drop(envId);
        return;
      }
      const source = await readSnapshotSource(this.storage, environment);
      if (this.closed) return;
      const previous = this.states.get(envId);
      if (previous && previous.version > environment.flagStateVersion) return;
      const state = new EnvironmentState({ ...source, flags: this.shareFlagRows(environment.appId, source.flags) });
      this.states.set(envId, state);
      this.indexKeys(previous?.environment, environment);
      this.waiters.advance(envId, state.version);
      if (!previous || previous.version !== state.version) {
        for (const listener of this.listeners) {
          try {
            listener(state);
          } catch (error) {
            this.logger.error('flagmount: snapshot listener failed', { error });
          }
        }
      }
    } catch (error) {
      // Keep serving the last snapshot; try again shortly (the store may be briefly unavailable). Not through
      // `dirty`: `reload` reruns a dirty environment at once, which against a store that fails at once is a loop of
      // microtasks that starves the event loop — the host would stop answering anything.
      this.logger.warn('flagmount: could not load flag snapshot, serving the previous one', { envId, error });
      this.failed.add(envId);
      this.scheduleRetry();
    }
  }

  private shareFlagRows(appId: string, rows: FlagRecord[]): FlagRecord[] {
    const held = this.appFlags.get(appId);
    const next = new Map<string, FlagRecord>();
    const shared = rows.map((row) => {
      const known = held?.get(row.id);
      const use = known && sameRow(known, row) ? known : row;
      next.set(use.id, use);
      return use;
    });
    this.appFlags.set(appId, next);
    return shared;
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      for (const envId of [...this.failed]) {
        this.failed.delete(envId);
        void this.reload(envId);
      }
    }, 1000);
    this.retryTimer.unref();
  }

  private indexKeys(previous: EnvironmentRecord | undefined, next: EnvironmentRecord): void {
    this.matchedKeys.clear();
    if (previous) {
      this.keyIndex.delete(sha256Hex(previous.publishableKey));
      this.keyIndex.delete(sha256Hex(previous.secretKey));
    }
    this.keyIndex.set(sha256Hex(next.publishableKey), { envId: next.id, keyKind: 'publishable' });
    this.keyIndex.set(sha256Hex(next.secretKey), { envId: next.id, keyKind: 'secret' });
    if (previous && (previous.publishableKey !== next.publishableKey || previous.secretKey !== next.secretKey)) {
      this.keysChanged(next.id);
    }
  }

  private keysChanged(envId: string): void {
    for (const listener of this.keyListeners) {
      try {
        listener(envId);
      } catch (error) {
        this.logger.error('flagmount: key change listener failed', { error });
      }
    }
  }

  private drop(envId: string): void {
    const state = this.states.get(envId);
    if (!state) return;
    this.states.delete(envId);
    this.matchedKeys.clear();
    this.keyIndex.delete(sha256Hex(state.environment.publishableKey));
    this.keyIndex.delete(sha256Hex(state.environment.secretKey));
    this.keysChanged(envId);
  }
}

/** Rows are flat records of scalars: equal when they have the same own fields with the same values. */
function sameRow(a: object, b: object): boolean {
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const key of ak) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (x !== y && !(typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && JSON.stringify(x) === JSON.stringify(y))) {
      return false;
    }
  }
  return true;
}
