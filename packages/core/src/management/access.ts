import type { MutationActor } from '../domain/mutation.js';
import { personActor } from '../host/member-sync.js';
import { HttpError, notFound, unauthenticated } from '../http/http-error.js';
import type { Principal } from '../http/route.js';
import type { Repositories } from '../storage/port.js';
import type { AppRecord, EntityRecord, EntityType, EnvironmentRecord, FlagRecord, ManagementKeyRecord } from '../storage/records.js';

/**
 * Resolving the resources a management route addresses. Every route goes through these, so the rules hold
 * everywhere: an unknown app/env/flag is 404 `not_found`; an app of another organisation is 401
 * `unauthenticated` (architecture.md: that key is not a management key *for this organisation*); an environment
 * or flag of another app under this app's path is 404, exactly as if it did not exist.
 */

export function managementKeyOf(principal: Principal): ManagementKeyRecord {
  if (principal.kind !== 'management') throw new HttpError(401, 'unauthenticated', 'A management API key is required');
  return principal.key;
}

/** The organisation of a management key or of a person signed in by the host. */
export function orgIdOf(principal: Principal): string {
  if (principal.kind === 'person') return principal.orgId;
  return managementKeyOf(principal).orgId;
}

/** Who a mutation is audited as: the key's id, or `member:<id>` for a person signed in by the host. */
export function actorOf(principal: Principal): MutationActor {
  if (principal.kind === 'person') return { orgId: principal.orgId, actor: personActor(principal.person.id) };
  const key = managementKeyOf(principal);
  return { orgId: key.orgId, actor: key.id };
}

export async function loadApp(repos: Repositories, principal: Principal, appId: string): Promise<AppRecord> {
  const orgId = orgIdOf(principal);
  const app = await repos.apps.get(appId);
  if (!app) throw notFound(`App ${appId}`);
  if (app.orgId !== orgId) throw unauthenticated('This management API key does not belong to the organization of this app');
  return app;
}

export async function loadEnvironment(repos: Repositories, app: AppRecord, envId: string): Promise<EnvironmentRecord> {
  const env = await repos.environments.get(envId);
  if (!env || env.appId !== app.id) throw notFound(`Environment ${envId}`);
  return env;
}

export async function loadFlagById(repos: Repositories, app: AppRecord, flagId: string): Promise<FlagRecord> {
  const flag = await repos.flags.get(flagId);
  if (!flag || flag.appId !== app.id) throw notFound(`Flag ${flagId}`);
  return flag;
}

export async function loadFlagByKey(repos: Repositories, app: AppRecord, flagKey: string): Promise<FlagRecord> {
  const flag = await repos.flags.getByKey(app.id, flagKey);
  if (!flag) throw notFound(`Flag ${flagKey}`);
  return flag;
}

/** A stored user or company: targeting one needs it upserted first (spec), so one never stored is a 404. */
export async function loadEntity(repos: Repositories, env: EnvironmentRecord, type: EntityType, id: string): Promise<EntityRecord> {
  const entity = await repos.entities.get(env.id, type, id);
  if (!entity) throw notFound(`${type === 'user' ? 'User' : 'Company'} ${id}`);
  return entity;
}

/**
 * The flagStateVersion of every environment of the app after a mutation. The versions it committed (`bumped`) win
 * over the stored ones, which a later write may already have moved on: a caller waits for the version holding its
 * own write.
 */
export async function versionsAfter(repos: Repositories, appId: string, bumped: Record<string, number>): Promise<Record<string, number>> {
  const envs = await repos.environments.listByApp(appId);
  return { ...Object.fromEntries(envs.map((e) => [e.id, e.flagStateVersion])), ...bumped };
}
