import type { Services } from '../../services.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';

/** Specific targets of one environment by flag id: who has opted in (or was targeted) per flag. */
export interface OptInIndex {
  users: ReadonlyMap<string, ReadonlySet<string>>;
  companies: ReadonlyMap<string, ReadonlySet<string>>;
}

const EMPTY: OptInIndex = { users: new Map(), companies: new Map() };

/**
 * The `optIn` members of `/features/evaluated` need the specific targets themselves, which a snapshot only holds as
 * generated rules. They are read once per snapshot version (not per request) and kept with that snapshot.
 */
const indexes = new WeakMap<EnvironmentState, Promise<OptInIndex>>();
/** The same indexes once read, for callers that answer without waiting. */
const loaded = new WeakMap<EnvironmentState, OptInIndex>();

/** The index of this snapshot if it has been read already. */
export function loadedOptInIndex(state: EnvironmentState): OptInIndex | undefined {
  return loaded.get(state);
}

export function optInIndex(services: Services, state: EnvironmentState): Promise<OptInIndex> {
  let index = indexes.get(state);
  if (!index) {
    index = load(services, state);
    indexes.set(state, index);
  }
  return index;
}

async function load(services: Services, state: EnvironmentState): Promise<OptInIndex> {
  try {
    const targets = await services.storage.specificTargets.listByEnv(state.environment.id);
    const users = new Map<string, Set<string>>();
    const companies = new Map<string, Set<string>>();
    for (const t of targets) {
      const byFlag = t.entityType === 'user' ? users : companies;
      let set = byFlag.get(t.flagId);
      if (!set) byFlag.set(t.flagId, (set = new Set()));
      set.add(t.entityId);
    }
    const index = { users, companies };
    loaded.set(state, index);
    return index;
  } catch (error) {
    // Evaluation must keep answering when the store is away; report "not opted in" and retry on the next request.
    services.logger.warn('flagmount: could not read opt-in targets', { envId: state.environment.id, error });
    indexes.delete(state);
    return EMPTY;
  }
}
