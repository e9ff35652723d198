import type { ConfigEvaluation, FlagEvaluation } from '@flagmount/engine';
import type { Context } from '../../schemas/context.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import type { FlagRecord } from '../../storage/records.js';
import { ByteSlab } from '../../http/byte-slab.js';
import { idText, type EvaluateOptions } from './evaluate.js';
import type { OptInIndex } from './opt-in-index.js';

/**
 * `/features/evaluated` written straight to JSON bytes: exactly what `JSON.stringify(evaluateFeatures(…))` writes,
 * in UTF-8 (a test holds them equal), without building 50 objects per request only to stringify them.
 *
 * Per snapshot version, each flag keeps what never changes between requests (key, name, description, stage) as
 * text, and also its whole entry for each outcome seen so far, as bytes: a flag's outcome without evaluation
 * problems is fixed by a few booleans (enabled, each rule's result, opted in), so most entries of most requests
 * are bytes already encoded. Only outcomes with errors, missing fields or a config are written per request.
 *
 * The body is those bytes copied into one slice of a `ByteSlab`. A 50-flag answer is ~23 KB: as a string it was
 * joined from the entries (a copy), then encoded to UTF-8 by the socket (a second copy and a scan), and left
 * 23 KB of garbage per request in the young generation; a fresh `Buffer` per answer was worse (measured ~20 µs to
 * allocate and collect). Copying kept bytes into a slab served about a fifth more answers per second than the join
 * (A/B of the HTTP benchmark, noisy machine).
 */

interface FlagText {
  /** `"<key>":{"key":"<key>","targetingVersion":` */
  head: string;
  /** `,"name":…,"description":…},"stage":…,"config":` */
  middle: string;
  /** Whole entries, each with a leading comma, by outcome signature (see `outcomeSignature`), at most MAX_OUTCOMES. */
  outcomes: Map<number, Buffer>;
}

/** Per flag: more distinct outcomes than this are written per request rather than kept. */
const MAX_OUTCOMES = 64;
/** Rule results beyond this count do not fit the signature: such flags are written per request. */
const MAX_SIGNATURE_RULES = 24;

/** What a request needs of one flag besides its evaluation. */
interface FlagRow {
  /** The flag record's, copied here: the loop below then reads one object per flag, not two. */
  secret: boolean;
  text: FlagText;
  optedInUsers: ReadonlySet<string> | undefined;
  optedInCompanies: ReadonlySet<string> | undefined;
}

interface Rows {
  /** The opt-in index the rows were made with: it is per snapshot too, but may be replaced after a failed read. */
  optIns: OptInIndex;
  /** Aligned with `state.compiled.keys` (and so with `evaluateList`); null for a key with no flag record. */
  byIndex: Array<FlagRow | null>;
  /** Indexes into `byIndex` in the order `JSON.stringify` writes an object's members (integer-like keys first). */
  order: number[];
  /** Outlives a new opt-in index: entries are keyed by the opt-in booleans, not by who opted in. */
  texts: Map<string, FlagText>;
  /** `{"success":true,"flagStateVersion":<version>,"features":{` */
  head: Buffer;
}

/** Per snapshot version (the snapshot itself is not ours to extend). */
const rowCache = new WeakMap<EnvironmentState, Rows>();

function rowsOf(state: EnvironmentState, optIns: OptInIndex): Rows {
  let rows = rowCache.get(state);
  if (!rows || rows.optIns !== optIns) {
    const texts = rows?.texts ?? new Map<string, FlagText>();
    const byIndex = state.compiled.keys.map((key) => rowFor(state, optIns, texts, key));
    const head = rows?.head ?? Buffer.from(`{"success":true,"flagStateVersion":${state.version},"features":{`);
    rows = { optIns, byIndex, order: rows?.order ?? memberOrder(state.compiled.keys), texts, head };
    rowCache.set(state, rows);
  }
  return rows;
}

function memberOrder(keys: readonly string[]): number[] {
  // A prototype-less object: "__proto__" is a member like any other.
  const probe = Object.create(null) as Record<string, number>;
  keys.forEach((key, i) => (probe[key] = i));
  return Object.values(probe);
}

const ONLY: readonly number[] = [0];

function rowFor(state: EnvironmentState, optIns: OptInIndex, texts: Map<string, FlagText>, key: string): FlagRow | null {
  const flag = state.flags.get(key);
  if (!flag) return null;
  let text = texts.get(key);
  if (!text) texts.set(key, (text = flagText(state, flag, key)));
  return { secret: flag.secret, text, optedInUsers: optIns.users.get(flag.id), optedInCompanies: optIns.companies.get(flag.id) };
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

const TAIL_REMOTE = Buffer.from('},"remoteContextUsed":true}');
const TAIL_SENT = Buffer.from('},"remoteContextUsed":false}');

const bodies = new ByteSlab();

/** The parts of the body being written, reused (one body at a time: writing one never waits). */
const scratchParts: Array<Buffer | string> = [];

/**
 * Kept entries, packed side by side in a slab of their own rather than a small buffer each: a request copies ~50
 * of them, and reading them from a few contiguous pages instead of 50 scattered allocations is what the copy costs.
 */
const entries = new ByteSlab();

/** Hands an answer's bytes back once sent (see `CoreResponse.release`), so the next answer reuses them. */
export function releaseEvaluatedBody(body: Buffer): void {
  bodies.release(body);
}

/**
 * The whole `/features/evaluated` (and `/features/enabled`) body: the UTF-8 of
 * `JSON.stringify({ success: true, flagStateVersion, features: evaluateFeatures(…), remoteContextUsed })`.
 */
export function evaluatedFeaturesBody(
  state: EnvironmentState,
  context: Context,
  optIns: OptInIndex,
  options: EvaluateOptions,
  remoteContextUsed: boolean,
): Buffer {
  const rows = rowsOf(state, optIns);
  let evaluations: readonly FlagEvaluation[];
  let rowList: ReadonlyArray<FlagRow | null>;
  let order: readonly number[];
  if (options.key !== undefined) {
    const one = state.compiled.evaluate(options.key, context);
    evaluations = one ? [one] : [];
    rowList = one ? [rowFor(state, optIns, rows.texts, one.key)] : [];
    order = one ? ONLY : [];
  } else {
    evaluations = state.compiled.evaluateList(context);
    rowList = rows.byIndex;
    order = rows.order;
  }
  const userId = idText(context.user?.id);
  const companyId = idText(context.company?.id);
  const { optInEnabled, enabledOnly, includeSecret } = options;
  const parts = scratchParts;
  let count = 0;
  parts[count++] = rows.head;
  // An upper bound of the body's length, in bytes: a string's UTF-16 unit is at most 3 UTF-8 bytes.
  let maxBytes = rows.head.length + TAIL_SENT.length;
  for (let n = 0; n < order.length; n++) {
    const i = order[n]!;
    const evaluation = evaluations[i]!;
    if (enabledOnly && !evaluation.isEnabled) continue;
    const row = rowList[i];
    if (!row || (row.secret && !includeSecret)) continue;
    const userOptedIn = userId !== undefined && (row.optedInUsers?.has(userId) ?? false);
    const companyOptedIn = companyId !== undefined && (row.optedInCompanies?.has(companyId) ?? false);
    const signature = outcomeSignature(evaluation, userOptedIn, companyOptedIn, optInEnabled);
    const text = row.text;
    let entry: Buffer | string | undefined = signature < 0 ? undefined : text.outcomes.get(signature);
    if (entry === undefined) {
      entry = `,${entryJson(text, evaluation, userOptedIn, companyOptedIn, optInEnabled)}`;
      if (signature >= 0 && text.outcomes.size < MAX_OUTCOMES) text.outcomes.set(signature, (entry = entries.write([entry], entry.length * 3)));
    }
    // Entries carry their separating comma; the first one goes without.
    if (count === 1) entry = typeof entry === 'string' ? entry.slice(1) : entry.subarray(1);
    parts[count++] = entry;
    maxBytes += typeof entry === 'string' ? entry.length * 3 : entry.length;
  }
  parts[count++] = remoteContextUsed ? TAIL_REMOTE : TAIL_SENT;
  // Usually the length it already had: the array keeps its capacity and the next body allocates nothing.
  parts.length = count;
  return bodies.write(parts, maxBytes);
}
