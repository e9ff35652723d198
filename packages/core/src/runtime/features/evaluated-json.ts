import type { ConfigEvaluation, FlagEvaluation } from '@flagmount/engine';
import type { Context } from '../../schemas/context.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import type { FlagRecord } from '../../storage/records.js';
import { idText, type EvaluateOptions } from './evaluate.js';
import type { OptInIndex } from './opt-in-index.js';

/**
 * `/features/evaluated` written straight to JSON text: exactly what `JSON.stringify(evaluateFeatures(…))` writes
 * (a test holds them equal), without building 50 objects per request only to stringify them.
 *
 * Per snapshot version, each flag keeps what never changes between requests (key, name, description, stage) as
 * text, and also its whole entry for each outcome seen so far: a flag's outcome without evaluation problems is
 * fixed by a few booleans (enabled, each rule's result, opted in), so most entries of most requests are one
 * string already written. Only outcomes with errors, missing fields or a config are written per request.
 *
 * The body is one `join` of the entries: a 50-flag answer is ~23 KB, and `+=` built it as a rope of 100 pieces
 * that writing then had to flatten (measured ~15 % of the route's CPU). Bytes assembled with `Buffer.concat` were
 * worse: a new 23 KB buffer outside the heap per request, whose allocation and collection cost ~20 µs each.
 */

interface FlagText {
  /** `"<key>":{"key":"<key>","targetingVersion":` */
  head: string;
  /** `,"name":…,"description":…},"stage":…,"config":` */
  middle: string;
  /** Whole entries, each with a leading comma, by outcome signature (see `outcomeSignature`), at most MAX_OUTCOMES. */
  outcomes: Map<number, string>;
}

/** Per flag: more distinct outcomes than this are written per request rather than kept. */
const MAX_OUTCOMES = 64;
/** Rule results beyond this count do not fit the signature: such flags are written per request. */
const MAX_SIGNATURE_RULES = 24;

/** What a request needs of one flag besides its evaluation, found with one lookup. */
interface FlagRow {
  flag: FlagRecord;
  text: FlagText;
  optedInUsers: ReadonlySet<string> | undefined;
  optedInCompanies: ReadonlySet<string> | undefined;
}

interface Rows {
  /** The opt-in index the rows were made with: it is per snapshot too, but may be replaced after a failed read. */
  optIns: OptInIndex;
  byKey: Map<string, FlagRow | null>;
  /** Outlives a new opt-in index: entries are keyed by the opt-in booleans, not by who opted in. */
  texts: Map<string, FlagText>;
  /** `{"success":true,"flagStateVersion":<version>,"features":{` */
  head: string;
}

/** Per snapshot version (the snapshot itself is not ours to extend). */
const rowCache = new WeakMap<EnvironmentState, Rows>();

function rowsOf(state: EnvironmentState, optIns: OptInIndex): Rows {
  let rows = rowCache.get(state);
  if (!rows || rows.optIns !== optIns) {
    rows = {
      optIns,
      byKey: new Map(),
      texts: rows?.texts ?? new Map(),
      head: rows?.head ?? `{"success":true,"flagStateVersion":${state.version},"features":{`,
    };
    rowCache.set(state, rows);
  }
  return rows;
}

function rowFor(state: EnvironmentState, rows: Rows, key: string): FlagRow | null {
  let row = rows.byKey.get(key);
  if (row === undefined) {
    const flag = state.flags.get(key);
    row = null;
    if (flag) {
      let text = rows.texts.get(key);
      if (!text) rows.texts.set(key, (text = flagText(state, flag, key)));
      row = { flag, text, optedInUsers: rows.optIns.users.get(flag.id), optedInCompanies: rows.optIns.companies.get(flag.id) };
    }
    rows.byKey.set(key, row);
  }
  return row;
}

function flagText(state: EnvironmentState, flag: FlagRecord, key: string): FlagText {
  const keyJson = JSON.stringify(key);
  const stage = (flag.stageId && state.stages.get(flag.stageId)) || null;
  // `JSON.stringify` leaves out members whose value is undefined; so must the fragments.
  const description = flag.description === undefined ? '' : `,"description":${JSON.stringify(flag.description)}`;
  const name = flag.name === undefined ? '' : `,"name":${JSON.stringify(flag.name)}`;
  return {
    head: `${keyJson}:{"key":${keyJson},"targetingVersion":`,
    middle: `${name}${description}},"stage":${JSON.stringify(stage)},"config":`,
    outcomes: new Map(),
  };
}

/**
 * A number that fixes the entry's text, or -1 when the outcome carries more than booleans (errors, missing fields,
 * a config). The rule results are bits under a leading 1 (so `[false]` and `[]` differ), then the four flags.
 */
function outcomeSignature(evaluation: FlagEvaluation, userOptedIn: boolean, companyOptedIn: boolean, optInEnabled: boolean): number {
  if (evaluation.config !== undefined || evaluation.evaluationErrors.length || evaluation.missingContextFields.length) return -1;
  const results = evaluation.ruleEvaluationResults;
  if (results.length > MAX_SIGNATURE_RULES) return -1;
  let signature = 1;
  for (let i = 0; i < results.length; i++) signature = signature * 2 + (results[i] ? 1 : 0);
  return signature * 16 + (evaluation.isEnabled ? 8 : 0) + (userOptedIn ? 4 : 0) + (companyOptedIn ? 2 : 0) + (optInEnabled ? 1 : 0);
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

function entryJson(text: FlagText, evaluation: FlagEvaluation, userOptedIn: boolean, companyOptedIn: boolean, optInEnabled: boolean): string {
  return (
    text.head +
    numberJson(evaluation.targetingVersion) +
    (evaluation.isEnabled ? ',"isEnabled":true' : ',"isEnabled":false') +
    (optInEnabled ? ',"optInEnabled":true' : ',"optInEnabled":false') +
    `,"optIn":{"userOptedIn":${userOptedIn},"companyOptedIn":${companyOptedIn},"isOptedIn":${userOptedIn || companyOptedIn}` +
    text.middle +
    configJson(evaluation.config) +
    `,"ruleEvaluationResults":${booleansJson(evaluation.ruleEvaluationResults)}` +
    `,"evaluationErrors":${listJson(evaluation.evaluationErrors)}` +
    `,"missingContextFields":${listJson(evaluation.missingContextFields)}}`
  );
}

const TAIL_REMOTE = '},"remoteContextUsed":true}';
const TAIL_SENT = '},"remoteContextUsed":false}';

/**
 * The whole `/features/evaluated` (and `/features/enabled`) body: the same text as
 * `JSON.stringify({ success: true, flagStateVersion, features: evaluateFeatures(…), remoteContextUsed })`.
 */
export function evaluatedFeaturesBody(
  state: EnvironmentState,
  context: Context,
  optIns: OptInIndex,
  options: EvaluateOptions,
  remoteContextUsed: boolean,
): string {
  let evaluations: readonly FlagEvaluation[];
  if (options.key !== undefined) {
    const one = state.compiled.evaluate(options.key, context);
    evaluations = one ? [one] : [];
  } else {
    evaluations = Object.values(state.compiled.evaluateAll(context));
  }
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  const optInEnabled = options.optInEnabled;
  const rows = rowsOf(state, optIns);
  // One flat string from one join: head, entries, tail (a `+` around the join would make a rope again).
  const parts: string[] = [rows.head];
  for (const evaluation of evaluations) {
    if (options.enabledOnly && !evaluation.isEnabled) continue;
    const row = rowFor(state, rows, evaluation.key);
    if (!row || (row.flag.secret && !options.includeSecret)) continue;
    const userOptedIn = userId !== undefined && (row.optedInUsers?.has(userId) ?? false);
    const companyOptedIn = companyId !== undefined && (row.optedInCompanies?.has(companyId) ?? false);
    const signature = outcomeSignature(evaluation, userOptedIn, companyOptedIn, optInEnabled);
    const text = row.text;
    let entry = signature < 0 ? undefined : text.outcomes.get(signature);
    if (entry === undefined) {
      entry = `,${entryJson(text, evaluation, userOptedIn, companyOptedIn, optInEnabled)}`;
      if (signature >= 0 && text.outcomes.size < MAX_OUTCOMES) text.outcomes.set(signature, entry);
    }
    parts.push(parts.length === 1 ? entry.slice(1) : entry);
  }
  parts.push(remoteContextUsed ? TAIL_REMOTE : TAIL_SENT);
  return parts.join('');
}
