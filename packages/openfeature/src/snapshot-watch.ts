import type { Flagmount } from '@flagmount/core';

type Snapshots = Flagmount['services']['snapshots'];
type State = NonNullable<ReturnType<Snapshots['get']>>;

/** What a flag evaluates from; two equal signatures evaluate alike for every context. */
function signatures(state: State | undefined): Map<string, string> {
  return new Map((state?.features ?? []).map((f) => [f.key, JSON.stringify([f.targeting, f.config])]));
}

function changedKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}

/**
 * Follows one environment's snapshots and reports which flags changed. The environment is the one the provider's
 * client evaluates in, by id or name; without one (a store that had no environment when the instance started), the
 * default of `createFlagmount`: order 0 of the first app.
 */
export class SnapshotWatch {
  private unsubscribe: (() => void) | undefined;
  private envId: string | undefined;
  private previous = new Map<string, string>();

  constructor(
    private readonly instance: Flagmount,
    private readonly environment: string | undefined,
    private readonly onChange: (flagsChanged: string[]) => void,
  ) {}

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    const { snapshots } = this.instance.services;
    this.envId = await this.resolveEnvironment();
    this.previous = signatures(this.envId ? snapshots.get(this.envId) : undefined);
    this.unsubscribe = snapshots.onUpdate((state) => {
      if (state.environment.id !== this.envId) return;
      const next = signatures(state);
      const changed = changedKeys(this.previous, next);
      this.previous = next;
      if (changed.length) this.onChange(changed);
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async resolveEnvironment(): Promise<string | undefined> {
    const { snapshots, storage } = this.instance.services;
    if (this.environment) {
      if (snapshots.get(this.environment)) return this.environment;
      const named = snapshots
        .all()
        .filter((s) => s.environment.name === this.environment)
        .sort((a, b) => a.environment.createdAt.localeCompare(b.environment.createdAt));
      return named[0]?.environment.id;
    }
    const [app] = await storage.apps.list();
    if (!app) return undefined;
    const [first] = await storage.environments.listByApp(app.id);
    return first?.id;
  }
}
