import type { ConfigEvaluation, FlagEvaluation } from '@flagmount/engine';
import type { Context } from '../../schemas/context.js';
import type { EvaluatedFeature } from '../../schemas/evaluated-feature.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import type { FlagRecord } from '../../storage/records.js';
import type { OptInIndex } from './opt-in-index.js';

export interface EvaluateOptions {
  /** Only this flag (the `key` query parameter). */
  key?: string | undefined;
  /** Only flags that evaluated to true (`/features/enabled`). */
  enabledOnly: boolean;
  /** Secret flags are served to the secret key only: a publishable key lives in browsers. */
  includeSecret: boolean;
  /** Whether this caller may opt in (`POST /flags/opt-in`), per the `optIn` option and its key kind. */
  optInEnabled: boolean;
}

const idText = (id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

/** The `features` map of `/features/evaluated` and `/features/enabled`, every field of the spec filled. */
export function evaluateFeatures(
  state: EnvironmentState,
  context: Context,
  optIns: OptInIndex,
  options: EvaluateOptions,
): Record<string, EvaluatedFeature> {
  const evaluations: FlagEvaluation[] = [];
  if (options.key !== undefined) {
    const one = state.compiled.evaluate(options.key, context);
    if (one) evaluations.push(one);
  } else {
    evaluations.push(...Object.values(state.compiled.evaluateAll(context)));
  }
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  const out: Record<string, EvaluatedFeature> = {};
  for (const evaluation of evaluations) {
    if (options.enabledOnly && !evaluation.isEnabled) continue;
    const flag = state.flags.get(evaluation.key);
    if (!flag || (flag.secret && !options.includeSecret)) continue;
    const entry = toEvaluatedFeature(state, flag, evaluation, optIns, userId, companyId, options.optInEnabled);
    // A flag called "__proto__" must be an entry, not the object's prototype.
    Object.defineProperty(out, evaluation.key, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function toEvaluatedFeature(
  state: EnvironmentState,
  flag: FlagRecord,
  evaluation: FlagEvaluation,
  optIns: OptInIndex,
  userId: string | undefined,
  companyId: string | undefined,
  optInEnabled: boolean,
): EvaluatedFeature {
  const userOptedIn = userId !== undefined && (optIns.users.get(flag.id)?.has(userId) ?? false);
  const companyOptedIn = companyId !== undefined && (optIns.companies.get(flag.id)?.has(companyId) ?? false);
  const config = evaluation.config;
  return {
    key: evaluation.key,
    targetingVersion: evaluation.targetingVersion,
    isEnabled: evaluation.isEnabled,
    optInEnabled,
    optIn: {
      userOptedIn,
      companyOptedIn,
      isOptedIn: userOptedIn || companyOptedIn,
      name: flag.name,
      description: flag.description,
    },
    stage: (flag.stageId && state.stages.get(flag.stageId)) || null,
    config: config
      ? {
          key: config.key,
          name: config.key,
          version: config.version,
          default: config.key === null,
          payload: config.payload ?? null,
          ruleEvaluationResults: config.ruleEvaluationResults,
          evaluationErrors: config.evaluationErrors,
          missingContextFields: config.missingContextFields,
        }
      : {
          key: null,
          name: null,
          version: 0,
          default: true,
          payload: null,
          ruleEvaluationResults: [],
          evaluationErrors: [],
          missingContextFields: [],
        },
    ruleEvaluationResults: evaluation.ruleEvaluationResults,
    evaluationErrors: evaluation.evaluationErrors,
    missingContextFields: evaluation.missingContextFields,
  };
}

/** The parts of one flag's entry that only change with the snapshot, already serialised. */
interface Fragments {
  /** `"<key>":{"key":"<key>","targetingVersion":` */
  head: string;
  /** `,"name":…,"description":…},"stage":…,"config":` */
  middle: string;
}

/** Per snapshot version: flag key → its static fragments (the snapshot itself is not ours to extend). */
const fragmentCache = new WeakMap<EnvironmentState, Map<string, Fragments>>();

function fragmentsOf(state: EnvironmentState): Map<string, Fragments> {
  let map = fragmentCache.get(state);
  if (!map) {
    map = new Map();
    fragmentCache.set(state, map);
  }
  return map;
}

function fragmentsFor(state: EnvironmentState, cache: Map<string, Fragments>, flag: FlagRecord, key: string): Fragments {
  let fragments = cache.get(key);
  if (!fragments) {
    const keyJson = JSON.stringify(key);
    const stage = (flag.stageId && state.stages.get(flag.stageId)) || null;
    // `JSON.stringify` leaves out members whose value is undefined; so must the fragments.
    const description = flag.description === undefined ? '' : `,"description":${JSON.stringify(flag.description)}`;
    const name = flag.name === undefined ? '' : `,"name":${JSON.stringify(flag.name)}`;
    fragments = {
      head: `${keyJson}:{"key":${keyJson},"targetingVersion":`,
      middle: `${name}${description}},"stage":${JSON.stringify(stage)},"config":`,
    };
    cache.set(key, fragments);
  }
  return fragments;
}

/** Payloads are frozen and shared by every evaluation of a snapshot: serialise each object once. */
const payloadCache = new WeakMap<object, string>();

function payloadJson(payload: unknown): string {
  if (payload === undefined || payload === null) return 'null';
  if (typeof payload !== 'object') return JSON.stringify(payload) ?? 'null';
  let text = payloadCache.get(payload);
  if (text === undefined) {
    text = JSON.stringify(payload) ?? 'null';
    if (Object.isFrozen(payload)) payloadCache.set(payload, text);
  }
  return text;
}

/** As `JSON.stringify` writes a number: NaN and the infinities are null. */
const numberJson = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');
const booleansJson = (values: readonly boolean[]): string => (values.length ? `[${values.join(',')}]` : '[]');
const listJson = (values: readonly unknown[]): string => (values.length ? JSON.stringify(values) : '[]');

const DEFAULT_CONFIG =
  '{"key":null,"name":null,"version":0,"default":true,"payload":null,"ruleEvaluationResults":[],"evaluationErrors":[],"missingContextFields":[]}';

function configJson(config: ConfigEvaluation | undefined): string {
  if (!config) return DEFAULT_CONFIG;
  const key = config.key === null ? 'null' : JSON.stringify(config.key);
  return (
    `{"key":${key},"name":${key},"version":${numberJson(config.version)},"default":${config.key === null}` +
    `,"payload":${payloadJson(config.payload)},"ruleEvaluationResults":${booleansJson(config.ruleEvaluationResults)}` +
    `,"evaluationErrors":${listJson(config.evaluationErrors)},"missingContextFields":${listJson(config.missingContextFields)}}`
  );
}

/**
 * `evaluateFeatures` serialised straight to the JSON text of the `features` object: the same members in the same
 * order, without building 50 objects per request only to stringify them. What a snapshot version fixes (key, name,
 * description, stage) is serialised once per version; only the evaluation's own results are written per request.
 */
export function evaluatedFeaturesJson(
  state: EnvironmentState,
  context: Context,
  optIns: OptInIndex,
  options: EvaluateOptions,
): string {
  let evaluations: FlagEvaluation[];
  if (options.key !== undefined) {
    const one = state.compiled.evaluate(options.key, context);
    evaluations = one ? [one] : [];
  } else {
    evaluations = Object.values(state.compiled.evaluateAll(context));
  }
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  const optInEnabled = options.optInEnabled ? ',"optInEnabled":true' : ',"optInEnabled":false';
  const cache = fragmentsOf(state);
  const { users, companies } = optIns;
  let out = '{';
  let first = true;
  for (const evaluation of evaluations) {
    if (options.enabledOnly && !evaluation.isEnabled) continue;
    const flag = state.flags.get(evaluation.key);
    if (!flag || (flag.secret && !options.includeSecret)) continue;
    const fragments = fragmentsFor(state, cache, flag, evaluation.key);
    const userOptedIn = userId !== undefined && (users.get(flag.id)?.has(userId) ?? false);
    const companyOptedIn = companyId !== undefined && (companies.get(flag.id)?.has(companyId) ?? false);
    if (!first) out += ',';
    first = false;
    out +=
      fragments.head +
      numberJson(evaluation.targetingVersion) +
      (evaluation.isEnabled ? ',"isEnabled":true' : ',"isEnabled":false') +
      optInEnabled +
      `,"optIn":{"userOptedIn":${userOptedIn},"companyOptedIn":${companyOptedIn},"isOptedIn":${userOptedIn || companyOptedIn}` +
      fragments.middle +
      configJson(evaluation.config) +
      `,"ruleEvaluationResults":${booleansJson(evaluation.ruleEvaluationResults)}` +
      `,"evaluationErrors":${listJson(evaluation.evaluationErrors)}` +
      `,"missingContextFields":${listJson(evaluation.missingContextFields)}}`;
  }
  return out + '}';
}
