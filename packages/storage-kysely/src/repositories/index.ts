import type { Repositories } from '@flagmount/core';
import { appRepository } from './apps.js';
import { auditRepository } from './audit.js';
import type { RepoContext } from './context.js';
import { entityRepository } from './entities.js';
import { environmentRepository } from './environments.js';
import { eventRepository } from './events.js';
import { feedbackRepository } from './feedback.js';
import { flagRepository } from './flags.js';
import { managementKeyRepository } from './management-keys.js';
import { memberRepository } from './members.js';
import { organizationRepository } from './organizations.js';
import { scheduleRepository } from './schedules.js';
import { segmentRepository } from './segments.js';
import { specificTargetRepository } from './specific-targets.js';
import { stageRepository } from './stages.js';
import { statsRepository } from './stats.js';
import { targetingRepository } from './targeting.js';

export type { RepoContext } from './context.js';

export function createRepositories(ctx: RepoContext): Repositories {
  return {
    organizations: organizationRepository(ctx),
    apps: appRepository(ctx),
    environments: environmentRepository(ctx),
    stages: stageRepository(ctx),
    segments: segmentRepository(ctx),
    members: memberRepository(ctx),
    flags: flagRepository(ctx),
    targeting: targetingRepository(ctx),
    specificTargets: specificTargetRepository(ctx),
    entities: entityRepository(ctx),
    events: eventRepository(ctx),
    feedback: feedbackRepository(ctx),
    stats: statsRepository(ctx),
    audit: auditRepository(ctx),
    managementKeys: managementKeyRepository(ctx),
    schedules: scheduleRepository(ctx),
  };
}

/**
 * Wraps every repository method so that driver errors leave the store already translated into the port's errors
 * (ConflictError, StorageUnavailableError); the core never sees a `pg` or `sqlite3` error.
 */
export function mapRepositoryErrors(repos: Repositories, mapError: (error: unknown) => unknown): Repositories {
  const wrapped: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(repos) as [string, Record<string, unknown>][]) {
    const methods: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(repo)) {
      if (typeof fn !== 'function') continue;
      methods[method] = async (...args: unknown[]) => {
        try {
          return await (fn as (...a: unknown[]) => Promise<unknown>).apply(repo, args);
        } catch (error) {
          throw mapError(error);
        }
      };
    }
    wrapped[name] = Object.freeze(methods);
  }
  return wrapped as unknown as Repositories;
}
