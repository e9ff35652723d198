import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import type { CoreResponse } from '../../src/http/types.js';
import { silentLogger } from '../../src/logger.js';
import { flagsUpdatedMessage, StreamHub } from '../../src/runtime/sse/stream-hub.js';
import type { EnvironmentState } from '../../src/snapshot/environment-state.js';
import type { SnapshotCache } from '../../src/snapshot/snapshot-cache.js';

/** Just what the hub uses of the snapshot cache: `get(envId).version`, `onUpdate` and `onKeysChange`. */
function fakeSnapshots(versions: Record<string, number>) {
  const listeners = new Set<(state: EnvironmentState) => void>();
  const keyListeners = new Set<(envId: string) => void>();
  const cache = {
    get: (envId: string) => (envId in versions ? ({ version: versions[envId] } as EnvironmentState) : undefined),
    onUpdate: (listener: (state: EnvironmentState) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onKeysChange: (listener: (envId: string) => void) => {
      keyListeners.add(listener);
      return () => keyListeners.delete(listener);
    },
  };
  const update = (envId: string, version: number) => {
    versions[envId] = version;
    for (const l of listeners) l({ version, environment: { id: envId } } as EnvironmentState);
  };
  const keysChanged = (envId: string) => {
    for (const l of keyListeners) l(envId);
  };
  return { cache: cache as unknown as SnapshotCache, update, keysChanged, listeners };
}

function connect(response: CoreResponse) {
  const chunks: string[] = [];
  let ended = false;
  const release = response.stream!.open({ write: (c) => void chunks.push(c), end: () => void (ended = true) });
  return { chunks, release, ended: () => ended };
}

let hub: StreamHub | undefined;
afterEach(() => {
  hub?.close();
  hub = undefined;
  vi.useRealTimers();
});

describe('StreamHub', () => {
  it('answers 200 text/event-stream and sends the current version on connect', () => {
    const { cache } = fakeSnapshots({ e1: 4 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 5, heartbeatMs: 1000 });
    const response = hub.open('e1');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.body).toBeUndefined();
    const c = connect(response);
    expect(c.chunks).toEqual(['data: {"name":"flags-updated","data":{"flagStateVersion":4}}\n\n']);
  });

  it('pushes every version change of its own environment only', () => {
    const { cache, update } = fakeSnapshots({ e1: 1, e2: 1 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 5, heartbeatMs: 1000 });
    const a = connect(hub.open('e1'));
    const b = connect(hub.open('e2'));
    update('e1', 2);
    update('e1', 3);
    expect(a.chunks.slice(1)).toEqual([flagsUpdatedMessage(2), flagsUpdatedMessage(3)]);
    expect(b.chunks).toEqual([flagsUpdatedMessage(1)]);
  });

  it('sends ":" heartbeats every heartbeatMs with one shared timer', () => {
    vi.useFakeTimers();
    const { cache } = fakeSnapshots({ e1: 0 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 5, heartbeatMs: 1000 });
    const a = connect(hub.open('e1'));
    vi.advanceTimersByTime(999);
    expect(a.chunks).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(a.chunks[1]).toBe(':\n\n');
    vi.advanceTimersByTime(2000);
    expect(a.chunks.filter((c) => c === ':\n\n')).toHaveLength(3);
  });

  it('caps connections per environment with a 503 and frees slots on disconnect', () => {
    const { cache } = fakeSnapshots({ e1: 0, e2: 0 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 2, heartbeatMs: 1000 });
    const first = connect(hub.open('e1'));
    connect(hub.open('e1'));
    let refused: unknown;
    try {
      hub.open('e1');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(503);
    expect(() => hub!.open('e2')).not.toThrow();
    first.release();
    expect(hub.count('e1')).toBe(1);
    expect(() => hub!.open('e1')).not.toThrow();
  });

  it('ends every stream on close() and refuses new ones', () => {
    const { cache, update, listeners } = fakeSnapshots({ e1: 0 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 5, heartbeatMs: 1000 });
    const a = connect(hub.open('e1'));
    hub.close();
    expect(a.ended()).toBe(true);
    expect(hub.count()).toBe(0);
    expect(listeners.size).toBe(0);
    update('e1', 1);
    expect(a.chunks).toHaveLength(1);
    expect(() => hub!.open('e1')).toThrow(HttpError);
  });

  it('drops a stream whose write fails without affecting the others', () => {
    const { cache, update } = fakeSnapshots({ e1: 0 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 5, heartbeatMs: 1000 });
    const broken = hub.open('e1');
    let writes = 0;
    broken.stream!.open({
      write: () => {
        if (++writes > 1) throw new Error('socket gone');
      },
      end: () => {},
    });
    const ok = connect(hub.open('e1'));
    update('e1', 1);
    expect(ok.chunks).toEqual([flagsUpdatedMessage(0), flagsUpdatedMessage(1)]);
    expect(hub.count('e1')).toBe(1);
  });

  it('frees the slot of a response that is never opened', () => {
    vi.useFakeTimers();
    const { cache } = fakeSnapshots({ e1: 0 });
    hub = new StreamHub(cache, silentLogger, { maxConnectionsPerEnvironment: 1, heartbeatMs: 0 });
    hub.open('e1');
    expect(() => hub!.open('e1')).toThrow(HttpError);
    vi.advanceTimersByTime(30_000);
    expect(hub.count('e1')).toBe(0);
  });
  it('ends, when its environment\'s keys change, the streams whose key no longer holds', () => {
    const snapshots = fakeSnapshots({ e1: 3 });
    hub = new StreamHub(snapshots.cache, silentLogger, { maxConnectionsPerEnvironment: 10, heartbeatMs: 0 });
    let revoked = false;
    const old = connect(hub.open('e1', () => !revoked));
    const kept = connect(hub.open('e1', () => true));
    snapshots.keysChanged('e1');
    expect([old.ended(), kept.ended()]).toEqual([false, false]);
    revoked = true;
    snapshots.keysChanged('e1');
    expect([old.ended(), kept.ended()]).toEqual([true, false]);
    expect(hub.count('e1')).toBe(1);
  });
});
