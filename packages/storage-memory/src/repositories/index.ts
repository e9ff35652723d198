import type { Repositories } from '@flagmount/core';
import type { Db } from '../view.js';
import { auditRepository, managementKeyRepository } from './audit-keys.js';
import { flagRepository, segmentRepository, stageRepository } from './catalog.js';
import { entityRepository } from './entities.js';
import { environmentRepository } from './environments.js';
import { eventRepository, feedbackRepository } from './events.js';
import { appRepository, memberRepository, organizationRepository } from './organizations.js';
import { scheduleRepository } from './schedules.js';
import { statsRepository } from './stats.js';
import { specificTargetRepository, targetingRepository } from './targeting.js';

/** Every repository over one view of the tables (committed state, or a transaction's overlay). */
export function createRepositories(db: Db): Repositories {
  return {
    organizations: organizationRepository(db),
    apps: appRepository(db),
    environments: environmentRepository(db),
    stages: stageRepository(db),
    segments: segmentRepository(db),
    members: memberRepository(db),
    flags: flagRepository(db),
    targeting: targetingRepository(db),
    specificTargets: specificTargetRepository(db),
    entities: entityRepository(db),
    events: eventRepository(db),
    feedback: feedbackRepository(db),
    stats: statsRepository(db),
    audit: auditRepository(db),
    managementKeys: managementKeyRepository(db),
    schedules: scheduleRepository(db),
  };
}

type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/**
 * The methods that write. Outside a transaction each runs as a transaction of its own (serialised with the
 * others, atomic); every other method reads committed state directly.
 */
export const WRITE_METHODS: { readonly [R in keyof Repositories]: readonly MethodNames<Repositories[R]>[] } = {
  organizations: ['insert', 'update'],
  apps: ['insert', 'update'],
  environments: ['insert', 'update', 'bumpVersion'],
  stages: ['insert', 'update', 'delete'],
  segments: ['insert', 'update', 'delete'],
  members: ['upsert'],
  flags: ['insert', 'update'],
  targeting: ['put'],
  specificTargets: ['add', 'remove'],
  entities: ['put', 'delete', 'addMembership'],
  events: ['insertTracks', 'insertChecks', 'insertPromptEvents'],
  feedback: ['put'],
  stats: ['mergeEntityFlagStats', 'mergeFlagDailyStats'],
  audit: ['insert'],
  managementKeys: ['insert', 'update'],
  schedules: ['insert', 'settle'],
};

export const REPOSITORY_NAMES = Object.keys(WRITE_METHODS) as (keyof Repositories)[];

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/** Rebuilds `repos` with every method passed through `wrap(repository, method, original)`. */
export function mapRepositories(
  repos: Repositories,
  wrap: (repository: keyof Repositories, method: string, original: AnyMethod) => AnyMethod,
): Repositories {
  const out = {} as Record<keyof Repositories, Record<string, AnyMethod>>;
  for (const name of REPOSITORY_NAMES) {
    const repository = repos[name] as unknown as Record<string, AnyMethod>;
    const wrapped: Record<string, AnyMethod> = {};
    for (const [method, original] of Object.entries(repository)) wrapped[method] = wrap(name, method, original);
    out[name] = wrapped;
  }
  return out as unknown as Repositories;
}
