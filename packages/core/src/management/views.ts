import type { AppHeader, App } from '../schemas/app.js';
import type { Environment, EnvironmentHeader } from '../schemas/environment.js';
import type { UserHeader } from '../schemas/member.js';
import type { SegmentHeader, Segment } from '../schemas/segment.js';
import type { StageHeader } from '../schemas/stage.js';
import type { Repositories } from '../storage/port.js';
import type {
  AppRecord,
  EnvironmentRecord,
  MemberRecord,
  OrganizationRecord,
  SegmentRecord,
  StageRecord,
} from '../storage/records.js';

/** Projections of stored rows onto the API shapes: one place decides which fields leave the service. */

export const toEnvironmentHeader = (env: EnvironmentRecord): EnvironmentHeader => ({
  id: env.id,
  name: env.name,
  isProduction: env.isProduction,
  order: env.order,
  flagStateVersion: env.flagStateVersion,
});

export const toEnvironment = (env: EnvironmentRecord): Environment => ({
  ...toEnvironmentHeader(env),
  sdkAccess: { publishableKey: env.publishableKey, secretKey: env.secretKey },
});

export const toStageHeader = (stage: StageRecord): StageHeader => ({
  id: stage.id,
  name: stage.name,
  color: stage.color,
  order: stage.order,
});

export const toSegmentHeader = (segment: SegmentRecord): SegmentHeader => ({
  id: segment.id,
  name: segment.name,
  type: segment.type,
});

export const toSegment = (segment: SegmentRecord): Segment => ({
  ...toSegmentHeader(segment),
  filter: segment.filter,
  createdAt: segment.createdAt,
  updatedAt: segment.updatedAt,
});

/** The spec's user header: avatarUrl is optional, so a member without one omits it rather than sending null. */
export function toUserHeader(member: MemberRecord): UserHeader {
  const header: UserHeader = { id: member.id, name: member.name, email: member.email };
  if (member.avatarUrl) header.avatarUrl = member.avatarUrl;
  return header;
}

const orgHeader = (org: OrganizationRecord | undefined, app: AppRecord) => ({
  // An app always has its organisation; the fallback only keeps a damaged store readable.
  id: app.orgId,
  name: org?.name || app.orgId,
});

export async function appHeader(repos: Repositories, app: AppRecord): Promise<AppHeader> {
  const [org, envs] = await Promise.all([repos.organizations.get(app.orgId), repos.environments.listByApp(app.id)]);
  return {
    org: orgHeader(org, app),
    id: app.id,
    name: app.name,
    demo: app.demo,
    flagKeyFormat: app.flagKeyFormat,
    environments: envs.map(toEnvironmentHeader),
  };
}

export async function fullApp(repos: Repositories, app: AppRecord): Promise<App> {
  const [org, envs, stages, segments] = await Promise.all([
    repos.organizations.get(app.orgId),
    repos.environments.listByApp(app.id),
    repos.stages.listByApp(app.id),
    repos.segments.listByApp(app.id),
  ]);
  return {
    org: orgHeader(org, app),
    id: app.id,
    name: app.name,
    demo: app.demo,
    flagKeyFormat: app.flagKeyFormat,
    environments: envs.map(toEnvironment),
    stages: stages.map(toStageHeader),
    segments: segments.map(toSegmentHeader),
  };
}

/** An environment as written to the audit log: never its SDK keys (the audit is readable with the `read` scope). */
export function auditedEnvironment(env: EnvironmentRecord): Omit<EnvironmentRecord, 'publishableKey' | 'secretKey'> {
  const { publishableKey: _p, secretKey: _s, ...rest } = env;
  return rest;
}
