import { compileSnapshot, type CompiledSnapshot, type EvaluationContext } from '@flagmount/engine';
import { defineRoute } from '../../http/route.js';
import { PREVIEW_SAMPLE_SIZE, TargetingPreviewSchema, type PreviewCounts, type TargetingPreview } from '../../schemas/preview.js';
import { TargetingBodySchema, TargetingParamsSchema, type TargetingBody } from '../../schemas/targeting.js';
import { buildSnapshot, readSnapshotSource, type SnapshotSource } from '../../snapshot/build-snapshot.js';
import type { Repositories } from '../../storage/port.js';
import type { EntityType, EnvironmentRecord, FlagRecord } from '../../storage/records.js';
import { loadApp, loadEnvironment, loadFlagByKey } from '../access.js';
import { checkTargetingBody, checkTargetingReferences, proposedTargeting } from './apply-targeting.js';

/** Entities read per page: memory stays bounded whatever the number of stored entities. */
export const PREVIEW_PAGE_SIZE = 1000;

/** The environment as stored, and as it would be with `body` as the flag's targeting: each compiled once. */
export async function compileBoth(repos: Repositories, env: EnvironmentRecord, flag: FlagRecord, body: TargetingBody) {
  const source = await readSnapshotSource(repos, env);
  const stored = source.targeting.find((t) => t.flagId === flag.id);
  const { record } = proposedTargeting(flag, env, stored, body, new Date(0).toISOString());
  const proposed: SnapshotSource = { ...source, targeting: source.targeting.filter((t) => t.flagId !== flag.id).concat(record) };
  return { now: compileSnapshot(buildSnapshot(source).engine), after: compileSnapshot(buildSnapshot(proposed).engine) };
}

/** Walks every stored entity of one type in keyset pages, counting who the flag reaches before and after. */
export async function countImpact(
  repos: Repositories,
  envId: string,
  type: EntityType,
  flagKey: string,
  engines: { now: CompiledSnapshot; after: CompiledSnapshot },
): Promise<PreviewCounts> {
  const counts: PreviewCounts = { total: 0, enabledNow: 0, enabledAfter: 0, turnedOn: 0, turnedOff: 0, sample: { turnedOn: [], turnedOff: [] } };
  let after: string | undefined;
  for (;;) {
    const page = await repos.entities.listAttributesPage(envId, type, after, PREVIEW_PAGE_SIZE);
    for (const entity of page) {
      // What /features/evaluated evaluates for this id alone: its stored attributes under the id sent.
      // One context object for both evaluations: the attributes are decoded for this walk and owned by it.
      const attributes = Object.assign(entity.attributes, { id: entity.id });
      const context: EvaluationContext = type === 'user' ? { user: attributes } : { company: attributes };
      const now = engines.now.evaluate(flagKey, context)?.isEnabled ?? false;
      const later = engines.after.evaluate(flagKey, context)?.isEnabled ?? false;
      counts.total++;
      if (now) counts.enabledNow++;
      if (later) counts.enabledAfter++;
      if (later && !now) {
        counts.turnedOn++;
        if (counts.sample.turnedOn.length < PREVIEW_SAMPLE_SIZE) counts.sample.turnedOn.push(entity.id);
      } else if (now && !later) {
        counts.turnedOff++;
        if (counts.sample.turnedOff.length < PREVIEW_SAMPLE_SIZE) counts.sample.turnedOff.push(entity.id);
      }
    }
    if (page.length < PREVIEW_PAGE_SIZE) return counts;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Extension: who a proposed targeting (the body of `PUT …/targeting/{envId}`) would turn on and off, against the
 * stored users and companies. Nothing is written; the body is checked as the PUT checks it.
 */
export const previewTargetingRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/flags/{flagKey}/targeting/{envId}/preview',
  operationId: 'previewFlagTargeting',
  summary: 'Preview who a targeting change affects',
  surface: 'management',
  tags: ['Targeting'],
  auth: { kind: 'management', scope: 'read' },
  params: TargetingParamsSchema,
  body: TargetingBodySchema,
  response: TargetingPreviewSchema,
  async handle({ params, body, principal, services }): Promise<TargetingPreview> {
    checkTargetingBody(body, params.flagKey);
    const repos = services.storage;
    const app = await loadApp(repos, principal, params.appId);
    const [flag, env] = await Promise.all([loadFlagByKey(repos, app, params.flagKey), loadEnvironment(repos, app, params.envId)]);
    await checkTargetingReferences(repos, { app, flag, env, body });
    const engines = await compileBoth(repos, env, flag, body);
    return {
      users: await countImpact(repos, env.id, 'user', flag.key, engines),
      companies: await countImpact(repos, env.id, 'company', flag.key, engines),
    };
  },
});
