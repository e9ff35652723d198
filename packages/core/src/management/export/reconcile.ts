import { newId } from '../../domain/ids.js';
import { newEnvironmentRecord } from '../../domain/new-environment-record.js';
import type { MutationTx } from '../../domain/mutation.js';
import { newFlagRecord } from '../../domain/new-flag-record.js';
import { bumpDependents } from '../../domain/prerequisite-graph.js';
import { addIssue, invalidRequest, type Issues } from '../../http/http-error.js';
import type { ExportDocument, ImportAction, ImportChange, ImportResource } from '../../schemas/export.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, FlagTargetingRecord, SegmentRecord, StageRecord } from '../../storage/records.js';
import { sameJson } from '../canonical-json.js';
import { flagKeyFormatProblem } from '../flags/flag-key-format.js';
import { refreshRolloutState } from '../targeting/everyone.js';
import { importSchedules } from './import-schedules.js';
import { checkPlannedPrerequisites } from './planned-prerequisites.js';
import { importedBody, sortedPrerequisites } from './targeting-form.js';

export interface ReconcileInput {
  /** Where to read: the transaction when applying, the store in a dry run. */
  repos: Repositories;
  /** Present when applying: every write goes through it. Absent: a dry run, which only compares. */
  tx?: MutationTx;
  orgId: string;
  /** Who imports (a management key id or a person): the schedules it creates are applied under this name. */
  actor: string;
  app: AppRecord | undefined;
  doc: ExportDocument;
  at: string;
}

export interface ReconcileResult {
  app: AppRecord;
  changes: ImportChange[];
  createdEnvIds: string[];
}

/** The fields of `next` whose values differ from `before`'s. */
function changedFields<N extends object>(before: object, next: N): Array<keyof N & string> {
  return (Object.keys(next) as Array<keyof N & string>).filter((k) => !sameJson((before as Record<string, unknown>)[k], next[k]));
}

const pick = <T extends object>(next: Partial<T>, fields: ReadonlyArray<keyof T>): Partial<T> =>
  Object.fromEntries(fields.map((f) => [f, next[f]])) as Partial<T>;

/**
 * Upserts the document into the app (created when absent) by keys and names: what exists is updated field by field,
 * what is missing is created, what the store holds beyond the document is kept. The same walk answers a dry run
 * (no `tx`: it compares and writes nothing) and applies (with `tx`), so the diff shown is the change made. Each
 * environment whose served state changes is marked once; `mutate` bumps it once at commit.
 */
export async function reconcile(input: ReconcileInput): Promise<ReconcileResult> {
  const { repos, tx, doc, at } = input;
  const changes: ImportChange[] = [];
  const note = (resource: ImportResource, name: string, action: ImportAction, fields: string[] = [], environment?: string) =>
    changes.push({ resource, name, ...(environment !== undefined ? { environment } : {}), action, fields });
  const audit = (action: string, targetType: string, targetId: string, before: unknown, after: unknown, envId: string | null = null) =>
    tx?.recordAudit({ appId: app.id, envId, action, targetType, targetId, changeDescription: 'import', before, after });

  const [envs, stages, segments, flags] = input.app
    ? await Promise.all([
        repos.environments.listByApp(input.app.id),
        repos.stages.listByApp(input.app.id),
        repos.segments.listByApp(input.app.id),
        repos.flags.listByApp(input.app.id),
      ])
    : [[], [], [], []];

  // A new flag's key must fit the app's key format, as on create; kept keys are in code and stay as they are.
  const issues: Issues = {};
  const existingFlags = new Map(flags.map((f) => [f.key, f]));
  doc.flags.forEach((f, i) => {
    const problem = existingFlags.has(f.key) ? undefined : flagKeyFormatProblem(f.key, doc.app.flagKeyFormat);
    if (problem) addIssue(issues, `flags.${i}.key`, problem);
  });
  // As on the segment routes: the `all` segment is the app's "everyone", changing it would retarget every rule using it.
  doc.segments.forEach((s, i) => {
    const existing = segments.find((x) => x.name === s.name);
    if (existing?.type === 'all' && changedFields(existing, { type: s.type, filter: s.filter }).length) {
      addIssue(issues, `segments.${i}`, `the "all" segment "${s.name}" cannot be changed`);
    }
  });
  await checkPlannedPrerequisites(repos, input.app, doc, envs, issues);
  if (Object.keys(issues).length) throw invalidRequest('Invalid import document', issues);

  // The app.
  let app: AppRecord;
  if (!input.app) {
    app = { id: newId('ap'), orgId: input.orgId, name: doc.app.name, demo: false, flagKeyFormat: doc.app.flagKeyFormat, createdAt: at };
    note('app', app.name, 'create');
    await tx?.apps.insert(app);
    audit('app.created', 'app', app.id, null, app);
  } else {
    const before = input.app;
    const fields = changedFields(before, { name: doc.app.name, flagKeyFormat: doc.app.flagKeyFormat });
    app = { ...before, ...doc.app };
    note('app', app.name, fields.length ? 'update' : 'unchanged', fields);
    if (fields.length && tx) {
      await tx.apps.update(app.id, pick(doc.app, fields));
      audit('app.updated', 'app', app.id, before, app);
    }
  }

  // Environments, by name (case-insensitively): the document's in its order, then the others, numbered 0..n-1.
  let markAll = false;
  let productionChanged = false;
  const createdEnvIds: string[] = [];
  const envByName = new Map<string, EnvironmentRecord>();
  const wanted = [...doc.environments].sort((a, b) => a.order - b.order);
  const named = new Set(wanted.map((e) => e.name.toLowerCase()));
  const kept = [...envs].filter((e) => !named.has(e.name.toLowerCase())).sort((a, b) => a.order - b.order);
  for (const [order, e] of wanted.entries()) {
    const existing = envs.find((x) => x.name.toLowerCase() === e.name.toLowerCase());
    if (!existing) {
      const env = newEnvironmentRecord({ appId: app.id, name: e.name, isProduction: e.isProduction, order, createdAt: at });
      note('environment', env.name, 'create');
      envByName.set(env.name.toLowerCase(), env);
      createdEnvIds.push(env.id);
      if (tx) {
        await tx.environments.insert(env);
        tx.publishChange(env.id, 0);
        audit('environment.created', 'environment', env.id, null, { ...env, publishableKey: undefined, secretKey: undefined }, env.id);
      }
      continue;
    }
    const next = { name: e.name, isProduction: e.isProduction, order };
    const fields = changedFields(existing, next);
    const env = { ...existing, ...next };
    envByName.set(env.name.toLowerCase(), env);
    note('environment', env.name, fields.length ? 'update' : 'unchanged', fields);
    if (fields.includes('isProduction')) productionChanged = true;
    if (fields.length && tx) {
      await tx.environments.update(env.id, pick(next, fields));
      audit('environment.updated', 'environment', env.id, null, next, env.id);
    }
  }
  for (const [i, env] of kept.entries()) {
    const order = wanted.length + i;
    if (env.order !== order) await tx?.environments.update(env.id, { order });
    envByName.set(env.name.toLowerCase(), { ...env, order });
  }

  // Stages, by name.
  const stageByName = new Map<string, StageRecord>(stages.map((s) => [s.name, s]));
  const updatedStageIds = new Set<string>();
  for (const s of doc.stages) {
    const existing = stageByName.get(s.name);
    if (!existing) {
      const stage: StageRecord = { id: newId('st'), appId: app.id, name: s.name, color: s.color, order: s.order };
      stageByName.set(s.name, stage);
      note('stage', s.name, 'create');
      await tx?.stages.insert(stage);
      audit('stage.created', 'stage', stage.id, null, stage);
      continue;
    }
    const fields = changedFields(existing, { color: s.color, order: s.order });
    note('stage', s.name, fields.length ? 'update' : 'unchanged', fields);
    if (!fields.length) continue;
    updatedStageIds.add(existing.id);
    stageByName.set(s.name, { ...existing, color: s.color, order: s.order });
    if (tx) {
      await tx.stages.update(existing.id, pick({ color: s.color, order: s.order }, fields));
      audit('stage.updated', 'stage', existing.id, existing, stageByName.get(s.name));
    }
  }
  // Flags are served with their stage's header.
  if (flags.some((f) => f.stageId && updatedStageIds.has(f.stageId))) markAll = true;

  // Segments, by name. Any segment change is a flag-state change of every environment (as on the segment routes).
  const segmentByName = new Map<string, SegmentRecord>(segments.map((s) => [s.name, s]));
  for (const s of doc.segments) {
    const existing = segmentByName.get(s.name);
    if (!existing) {
      const segment: SegmentRecord = { id: newId('sg'), appId: app.id, name: s.name, type: s.type, filter: s.filter, createdAt: at, updatedAt: at };
      segmentByName.set(s.name, segment);
      note('segment', s.name, 'create');
      markAll = true;
      await tx?.segments.insert(segment);
      audit('segment.created', 'segment', segment.id, null, segment);
      continue;
    }
    const fields = changedFields(existing, { type: s.type, filter: s.filter });
    note('segment', s.name, fields.length ? 'update' : 'unchanged', fields);
    if (!fields.length) continue;
    markAll = true;
    const after = { ...existing, type: s.type, filter: s.filter, updatedAt: at };
    segmentByName.set(s.name, after);
    if (tx) {
      await tx.segments.update(existing.id, { type: s.type, filter: s.filter, updatedAt: at });
      audit('segment.updated', 'segment', existing.id, existing, after);
    }
  }

  // Flags, by key. `/features` serves a flag's fields in every environment.
  const flagByKey = new Map<string, FlagRecord>(existingFlags);
  const served: Array<{ envId: string; flagKey: string }> = [];
  for (const f of doc.flags) {
    const next = {
      name: f.name,
      description: f.description,
      stageId: f.stage === null ? null : stageByName.get(f.stage)!.id,
      permanent: f.permanent,
      secret: f.secret,
      archived: f.archived,
    };
    const existing = flagByKey.get(f.key);
    if (!existing) {
      const flag = newFlagRecord({ id: newId('fl'), appId: app.id, key: f.key, createdAt: at, ...next });
      flagByKey.set(f.key, flag);
      note('flag', f.key, 'create');
      markAll = true;
      await tx?.flags.insert(flag);
      audit('flag.created', 'flag', flag.id, null, flag);
      continue;
    }
    const fields = changedFields(existing, next);
    note('flag', f.key, fields.length ? 'update' : 'unchanged', fields);
    if (!fields.length) continue;
    markAll = true;
    const after = { ...existing, ...next, updatedAt: at };
    if (tx) {
      await tx.flags.update(existing.id, { ...pick(next, fields), updatedAt: at });
      audit('flag.updated', 'flag', existing.id, existing, after);
    }
  }

  // Targeting, per flag and environment, as PUT targeting stores it; after every flag exists, since a prerequisite may
  // name a flag this import creates. The final graph was checked whole above, so the order of writes is free.
  for (const f of doc.flags) {
    const flag = flagByKey.get(f.key)!;
    for (const [envName, t] of Object.entries(f.targeting)) {
      const env = envByName.get(envName.toLowerCase())!;
      const stored = existingFlags.has(f.key) && !createdEnvIds.includes(env.id) ? await repos.targeting.get(flag.id, env.id) : undefined;
      const { rules, config, prerequisites: sent } = importedBody(flag.key, t, (name) => segmentByName.get(name)!.id);
      const variants = config!.variants;
      // Omitted (a file older than prerequisites): the stored ones are kept, as a PUT keeps them.
      const prerequisites = sent ?? stored?.prerequisites ?? [];
      const rulesChanged = !sameJson(rules, stored?.rules ?? []);
      const configChanged = !sameJson(variants, stored?.variants ?? []);
      const prerequisitesChanged = !sameJson(sortedPrerequisites(prerequisites), sortedPrerequisites(stored?.prerequisites ?? []));
      const fields = [...(rulesChanged ? ['rules'] : []), ...(configChanged ? ['config'] : []), ...(prerequisitesChanged ? ['prerequisites'] : [])];
      const action: ImportAction = !fields.length ? 'unchanged' : stored ? 'update' : 'create';
      note('targeting', flag.key, action, action === 'update' ? fields : [], env.name);
      if (!fields.length || !tx) continue;
      const record: FlagTargetingRecord = {
        flagId: flag.id,
        envId: env.id,
        version: (stored?.version ?? 0) + 1,
        rules,
        configVersion: (stored?.configVersion ?? 0) + (configChanged ? 1 : 0),
        variants,
        updatedAt: at,
        ...(prerequisites.length ? { prerequisites: sortedPrerequisites(prerequisites) } : {}),
      };
      await tx.targeting.put(record);
      tx.changesFlagState(env.id);
      if (rulesChanged || prerequisitesChanged) served.push({ envId: env.id, flagKey: flag.key });
      audit('flag.targeting.updated', 'flag', flag.id, stored ?? null, record, env.id);
    }
  }
  // What a flag serves inlines its prerequisites' rules: the flags standing on one that changed move version too.
  for (const { envId, flagKey } of served) if (tx) await bumpDependents(tx, app.id, envId, flagKey, at);

  await importSchedules({ repos, tx, app, doc, at, actor: input.actor, flagByKey, existingFlags, envByName, createdEnvIds, segmentByName, changes });

  if (tx) {
    if (markAll) tx.changesFlagState(...[...envByName.values()].map((e) => e.id));
    if (changes.some((c) => c.action !== 'unchanged') || productionChanged) await refreshRolloutState(tx, app.id, at);
  }
  return { app, changes, createdEnvIds };
}
