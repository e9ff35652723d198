import type { Repositories } from '@flagmount/core';
import {
  app,
  at,
  audit,
  checkEvent,
  day,
  entity,
  entityFlagStats,
  environment,
  feedback,
  flag,
  flagDailyStats,
  managementKey,
  member,
  membership,
  organization,
  promptEvent,
  segment,
  specificTarget,
  stage,
  targeting,
  trackEvent,
} from './fixtures.js';

/** One write to apply on top of `seedWorld`, and a read that shows whether it happened. */
export interface WorldWrite {
  readonly label: string;
  write(repos: Repositories): Promise<unknown>;
  /** Resolves true when the write is visible through `repos`. */
  visible(repos: Repositories): Promise<boolean>;
}

/** Every write method of the port, each once, valid on top of `seedWorld` and in this order. */
export const worldWrites: readonly WorldWrite[] = [
  {
    label: 'organizations.insert',
    write: (r) => r.organizations.insert(organization({ id: 'org_c' })),
    visible: async (r) => (await r.organizations.get('org_c')) !== undefined,
  },
  {
    label: 'organizations.update',
    write: (r) => r.organizations.update('org_a', { name: 'Changed' }),
    visible: async (r) => (await r.organizations.get('org_a'))?.name === 'Changed',
  },
  { label: 'apps.insert', write: (r) => r.apps.insert(app({ id: 'app_c' })), visible: async (r) => (await r.apps.get('app_c')) !== undefined },
  {
    label: 'apps.update',
    write: (r) => r.apps.update('app_a', { demo: true }),
    visible: async (r) => (await r.apps.get('app_a'))?.demo === true,
  },
  {
    label: 'environments.insert',
    write: (r) => r.environments.insert(environment({ id: 'env_c', order: 2 })),
    visible: async (r) => (await r.environments.getBySdkKey(environment({ id: 'env_c' }).secretKey)) !== undefined,
  },
  {
    label: 'environments.update',
    write: (r) => r.environments.update('env_a', { name: 'Changed' }),
    visible: async (r) => (await r.environments.get('env_a'))?.name === 'Changed',
  },
  {
    label: 'environments.bumpVersion',
    write: (r) => r.environments.bumpVersion('env_b'),
    visible: async (r) => (await r.environments.get('env_b'))?.flagStateVersion === 1,
  },
  { label: 'stages.insert', write: (r) => r.stages.insert(stage({ id: 'stage_c' })), visible: async (r) => (await r.stages.get('stage_c')) !== undefined },
  {
    label: 'stages.update',
    write: (r) => r.stages.update('stage_a', { color: '#000000' }),
    visible: async (r) => (await r.stages.get('stage_a'))?.color === '#000000',
  },
  { label: 'stages.delete', write: (r) => r.stages.delete('stage_b'), visible: async (r) => (await r.stages.get('stage_b')) === undefined },
  {
    label: 'segments.insert',
    write: (r) => r.segments.insert(segment({ id: 'seg_b' })),
    visible: async (r) => (await r.segments.get('seg_b')) !== undefined,
  },
  {
    label: 'segments.update',
    write: (r) => r.segments.update('seg_all', { name: 'Everyone' }),
    visible: async (r) => (await r.segments.get('seg_all'))?.name === 'Everyone',
  },
  { label: 'segments.delete', write: (r) => r.segments.delete('seg_all'), visible: async (r) => (await r.segments.get('seg_all')) === undefined },
  {
    label: 'members.upsert',
    write: (r) => r.members.upsert(member({ id: 'mem_a', name: 'Changed' })),
    visible: async (r) => (await r.members.get('mem_a'))?.name === 'Changed',
  },
  {
    label: 'flags.insert',
    write: (r) => r.flags.insert(flag({ id: 'flag_c' })),
    visible: async (r) => (await r.flags.getByKey('app_a', 'key_flag_c')) !== undefined,
  },
  {
    label: 'flags.update',
    write: (r) => r.flags.update('flag_a', { archived: true }),
    visible: async (r) => (await r.flags.get('flag_a'))?.archived === true,
  },
  {
    label: 'targeting.put',
    write: (r) => r.targeting.put(targeting({ version: 2 })),
    visible: async (r) => (await r.targeting.get('flag_a', 'env_a'))?.version === 2,
  },
  {
    label: 'specificTargets.add',
    write: (r) => r.specificTargets.add(specificTarget({ entityType: 'company', entityId: 'comp_a' })),
    visible: async (r) => (await r.specificTargets.listForEntity('env_a', 'company', 'comp_a')).length === 1,
  },
  {
    label: 'specificTargets.remove',
    write: (r) => r.specificTargets.remove('flag_a', 'env_a', 'company', 'comp_a'),
    visible: async (r) => (await r.specificTargets.listForEntity('env_a', 'company', 'comp_a')).length === 0,
  },
  {
    label: 'entities.put',
    write: (r) => r.entities.put(entity({ id: 'user_b' })),
    visible: async (r) => (await r.entities.get('env_a', 'user', 'user_b')) !== undefined,
  },
  {
    label: 'entities.addMembership',
    write: (r) => r.entities.addMembership(membership({ userId: 'user_b' })),
    visible: async (r) => (await r.entities.listCompanyUsers('env_a', 'comp_a')).includes('user_b'),
  },
  {
    label: 'entities.delete',
    write: (r) => r.entities.delete('env_a', 'user', 'user_a'),
    visible: async (r) => (await r.entities.get('env_a', 'user', 'user_a')) === undefined,
  },
  {
    label: 'events.insertTracks',
    write: (r) => r.events.insertTracks([trackEvent({ id: 'trk_c' })]),
    visible: async (r) => (await r.events.listTracks('env_a', 100)).some((e) => e.id === 'trk_c'),
  },
  {
    label: 'events.insertChecks',
    write: (r) => r.events.insertChecks([checkEvent({ id: 'chk_c' })]),
    visible: async (r) => (await r.events.listChecks('env_a', 100)).some((e) => e.id === 'chk_c'),
  },
  {
    label: 'events.insertChecks into a ring',
    write: (r) => r.events.insertChecks([checkEvent({ id: 'chk_d' })], 1),
    visible: async (r) => (await r.events.listChecks('env_a', 100)).map((e) => e.id).join() === 'chk_d',
  },
  {
    label: 'events.insertPromptEvents',
    write: (r) => r.events.insertPromptEvents([promptEvent({ id: 'prm_c' })]),
    visible: async (r) => (await r.events.listPromptEvents('env_a', 100)).some((e) => e.id === 'prm_c'),
  },
  {
    label: 'feedback.put',
    write: (r) => r.feedback.put(feedback({ id: 'fb_b', createdAt: at(1) })),
    visible: async (r) => (await r.feedback.get('env_a', 'fb_b')) !== undefined,
  },
  {
    label: 'stats.mergeEntityFlagStats',
    write: (r) => r.stats.mergeEntityFlagStats([entityFlagStats({ entityType: 'company', entityId: 'comp_a', trackCount: 2 })]),
    visible: async (r) => (await r.stats.listEntityFlagStats('env_a', 'company', 'comp_a')).length === 1,
  },
  {
    label: 'stats.mergeFlagDailyStats',
    write: (r) => r.stats.mergeFlagDailyStats([flagDailyStats({ checkCount: 5 })]),
    visible: async (r) => (await r.stats.listFlagDailyStats(['env_a'], day(0)))[0]?.checkCount === 7,
  },
  {
    label: 'audit.insert',
    write: (r) => r.audit.insert(audit({ id: 'aud_b', createdAt: at(1) })),
    visible: async (r) => (await r.audit.list({ orgId: 'org_a', limit: 10 })).some((a) => a.id === 'aud_b'),
  },
  {
    label: 'managementKeys.insert',
    write: (r) => r.managementKeys.insert(managementKey({ id: 'key_b' })),
    visible: async (r) => (await r.managementKeys.getByHash(managementKey({ id: 'key_b' }).hash)) !== undefined,
  },
  {
    label: 'managementKeys.update',
    write: (r) => r.managementKeys.update('key_a', { revokedAt: at(9) }),
    visible: async (r) => (await r.managementKeys.get('key_a'))?.revokedAt === at(9),
  },
];
