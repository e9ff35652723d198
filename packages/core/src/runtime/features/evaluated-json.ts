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
 * problems is fixed by a few booleans (each rule's and each config variant's result, opted in), which the engine
 * hands over as one number per flag (`CompiledSnapshot.outcomes`) without making an evaluation object. So most
 * entries of most requests are bytes already encoded; only outcomes with errors or missing fields are written
 * per request.
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
  /** The `config` of an evaluation without one. */
  noConfig: string;
  /**
   * Whole entries, at most MAX_OUTCOMES, by signature: the flag's outcome code (`CompiledSnapshot.outcomes`) and
   * the three opt-in booleans. Signatures below SMALL_SIGNATURE (a flag of a few rules) index an array: 50 map
   * lookups per request showed in the evaluate route's profile under load; an array read does not.
   */
  small: Array<Buffer | undefined>;
  large: Map<number, Buffer>;
  kept: number;
}

const SMALL_SIGNATURE = 512;

function keptEntry(text: FlagText, signature: number): Buffer | undefined {
  return signature < SMALL_SIGNATURE ? text.small[signature] : text.large.get(signature);
}

function keepEntry(text: FlagText, signature: number, entry: string): Buffer {
  const bytes = entries.write([entry], maxBytes(entry));
  if (signature < SMALL_SIGNATURE) text.small[signature] = bytes;
  else text.large.set(signature, bytes);
  text.kept++;
  return bytes;
}

/** Per flag: more distinct outcomes than this are written per request rather than kept. */
const MAX_OUTCOMES = 64;

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
  /** Each request's outcome codes, aligned with `byIndex` (one body at a time: writing one never waits). */
  codes: Int32Array;
  /** Aligned with `order`: the length of the run of fixed entries starting there (`fixedRuns`), else 0. */
  runs: Int32Array;
  /** A run's bytes by `position * 4 + variant` (`runBytes`); null when the variant leaves none of its entries. */
  runBytes: Map<number, Buffer | null>;
}

/** Per snapshot version (the snapshot itself is not ours to extend). */
const rowCache = new WeakMap<EnvironmentState, Rows>();

function rowsOf(state: EnvironmentState, optIns: OptInIndex): Rows {
  let rows = rowCache.get(state);
  if (!rows || rows.optIns !== optIns) {
    const texts = rows?.texts ?? new Map<string, FlagText>();
    const byIndex = state.compiled.keys.map((key) => rowFor(state, optIns, texts, key));
    const head = rows?.head ?? Buffer.from(`{"success":true,"flagStateVersion":${state.version},"features":{`);
    const codes = rows?.codes ?? new Int32Array(byIndex.length);
    const order = rows?.order ?? memberOrder(state.compiled.keys);
    rows = { optIns, byIndex, order, texts, head, codes, runs: fixedRuns(state, byIndex, order), runBytes: new Map() };
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
    noConfig: defaultConfigJson(state.emptyConfigVersions.get(key) ?? 0),
    small: [],
    large: new Map(),
    kept: 0,
  };
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

/** The config of a flag without variants: version 0, or that of the config it had before it was cleared. */
const defaultConfigJson = (version: number): string =>
  `{"key":null,"name":null,"version":${version},"default":true,"payload":null,"ruleEvaluationResults":[],"evaluationErrors":[],"missingContextFields":[]}`;

function configJson(config: ConfigEvaluation | undefined, text: FlagText): string {
  if (!config) return text.noConfig;
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
    configJson(evaluation.config, text) +
    `,"ruleEvaluationResults":${booleansJson(evaluation.ruleEvaluationResults)}` +
    `,"evaluationErrors":${listJson(evaluation.evaluationErrors)}` +
    `,"missingContextFields":${listJson(evaluation.missingContextFields)}}`
  );
}

const TAIL_REMOTE = Buffer.from('},"remoteContextUsed":true}');
const TAIL_SENT = Buffer.from('},"remoteContextUsed":false}');

/** An upper bound of a part's UTF-8 length: a string's UTF-16 unit is at most 3 bytes. */
const maxBytes = (part: Buffer | string): number => (typeof part === 'string' ? part.length * 3 : part.length);

const bodies = new ByteSlab();
const COMMA = 0x2c;

/** The parts of the body being written, reused (one body at a time: writing one never waits). */
const scratchParts: Array<Buffer | string> = [];

/**
 * Kept entries, packed side by side in a slab of their own rather than a small buffer each: a request copies ~50
 * of them, and reading them from a few contiguous pages instead of 50 scattered allocations is what the copy costs.
 */
const entries = new ByteSlab();

/** Hands an answer's bytes back once sent (see `CoreResponse.release`), so the next answer reuses them. */
export function releaseEvaluatedBody(body: Buffer, sent?: () => boolean): void {
  bodies.release(body, sent);
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
  const request: EntryRequest = {
    state,
    context,
    options,
    userId: idText(context.user?.id),
    companyId: idText(context.company?.id),
    entryBytes: 0,
  };
  const parts = scratchParts;
  parts[0] = rows.head;
  let count = 1;
  if (options.key !== undefined) {
    const entry = singleEntry(request, rows, options.key);
    if (entry !== undefined) {
      parts[count++] = entry;
      request.entryBytes = maxBytes(entry);
    }
  } else {
    count = allEntries(request, rows, parts, count);
  }
  parts[count++] = remoteContextUsed ? TAIL_REMOTE : TAIL_SENT;
  // Usually the length it already had: the array keeps its capacity and the next body allocates nothing. (Setting
  // an array's length is a runtime call even when it does not change.)
  if (parts.length !== count) parts.length = count;
  // Entries are parts 1 to count - 2, with commas between them.
  return bodies.write(parts, rows.head.length + request.entryBytes + TAIL_SENT.length, COMMA, 1, count - 1);
}

interface EntryRequest {
  state: EnvironmentState;
  context: Context;
  options: EvaluateOptions;
  userId: string | undefined;
  companyId: string | undefined;
  /** An upper bound of the entries' length, in bytes: a string's UTF-16 unit is at most 3 UTF-8 bytes. */
  entryBytes: number;
}

/** The `key` query: one flag, written in full (one entry is not worth a kept outcome). */
function singleEntry(request: EntryRequest, rows: Rows, key: string): string | undefined {
  const { state, options } = request;
  const evaluation = state.compiled.evaluate(key, request.context);
  if (!evaluation || (options.enabledOnly && !evaluation.isEnabled)) return undefined;
  const row = rowFor(state, rows.optIns, rows.texts, evaluation.key);
  if (!row || (row.secret && !options.includeSecret)) return undefined;
  return entryJson(row.text, evaluation, userOptedIn(request, row), companyOptedIn(request, row), options.optInEnabled);
}

const userOptedIn = (request: EntryRequest, row: FlagRow) =>
  request.userId !== undefined && (row.optedInUsers?.has(request.userId) ?? false);
const companyOptedIn = (request: EntryRequest, row: FlagRow) =>
  request.companyId !== undefined && (row.optedInCompanies?.has(request.companyId) ?? false);

/** One flag's entry (`row` is `rows.byIndex[i]`, code its outcome code), or undefined when it is left out. */
function entryOf(request: EntryRequest, row: FlagRow, i: number, code: number): Buffer | string | undefined {
  const { state, context, options } = request;
  const { enabledOnly, optInEnabled } = options;
  if (enabledOnly && code >= 0 && (code & 1) === 0) return undefined;
  const byUser = userOptedIn(request, row);
  const byCompany = companyOptedIn(request, row);
  // The entry's text is fixed by the outcome and the three opt-in booleans.
  const signature = code < 0 ? -1 : code * 8 + (byUser ? 4 : 0) + (byCompany ? 2 : 0) + (optInEnabled ? 1 : 0);
  const text = row.text;
  const kept = signature < 0 ? undefined : keptEntry(text, signature);
  if (kept !== undefined) return kept;
  const evaluation = state.compiled.evaluate(state.compiled.keys[i]!, context)!;
  if (enabledOnly && !evaluation.isEnabled) return undefined;
  const entry = entryJson(text, evaluation, byUser, byCompany, optInEnabled);
  return signature >= 0 && text.kept < MAX_OUTCOMES ? keepEntry(text, signature, entry) : entry;
}

/**
 * Every flag's entry after `parts[count - 1]`, by outcome code (`CompiledSnapshot.outcomes`): no evaluation
 * object is made for an outcome whose entry is kept, and a run of fixed entries is one part. Returns the new
 * count of parts.
 */
function allEntries(request: EntryRequest, rows: Rows, parts: Array<Buffer | string>, count: number): number {
  const { state, context, options } = request;
  const includeSecret = options.includeSecret;
  const codes = rows.codes;
  state.compiled.outcomes(context, codes);
  const { order, runs } = rows;
  for (let n = 0; n < order.length; n++) {
    const run = runs[n]!;
    let entry: Buffer | string | undefined;
    if (run > 0) {
      entry = runBytes(request, rows, n, run);
      n += run - 1;
    } else {
      const i = order[n]!;
      const row = rows.byIndex[i];
      if (!row || (row.secret && !includeSecret)) continue;
      entry = entryOf(request, row, i, codes[i]!);
    }
    if (entry === undefined) continue;
    parts[count++] = entry;
    // Its length and the comma before the next one.
    request.entryBytes += maxBytes(entry) + 1;
  }
  return count;
}

/**
 * Where runs of fixed entries start in `order`, with their length (0 elsewhere). An entry is fixed when its flag
 * is context-free, not secret, and has nobody opted in: then only the caller's `optInEnabled` and `enabledOnly`
 * change it. Most flags of a real app are plainly on or off, and one part for a run of them is one copy and one
 * turn of the loop instead of one per flag.
 */
function fixedRuns(state: EnvironmentState, byIndex: ReadonlyArray<FlagRow | null>, order: readonly number[]): Int32Array {
  const runs = new Int32Array(order.length);
  const fixed = (i: number) => {
    const row = byIndex[i];
    return !!row && !row.secret && state.compiled.contextFree[i] === true && !row.optedInUsers?.size && !row.optedInCompanies?.size;
  };
  for (let n = 0; n < order.length; ) {
    let end = n;
    while (end < order.length && fixed(order[end]!)) end++;
    if (end - n >= 2) runs[n] = end - n;
    n = Math.max(end, n + 1);
  }
  return runs;
}

/** The entries of the run at `order[n]`, comma-joined, made once per variant; undefined when none is left. */
function runBytes(request: EntryRequest, rows: Rows, n: number, run: number): Buffer | undefined {
  const { optInEnabled, enabledOnly } = request.options;
  const key = n * 4 + (optInEnabled ? 1 : 0) + (enabledOnly ? 2 : 0);
  let bytes = rows.runBytes.get(key);
  if (bytes === undefined) {
    const list: Array<Buffer | string> = [];
    for (let m = n; m < n + run; m++) {
      const i = rows.order[m]!;
      const entry = entryOf(request, rows.byIndex[i]!, i, rows.codes[i]!);
      if (entry !== undefined) list.push(entry);
    }
    bytes = list.length ? entries.write(list, list.reduce((sum, e) => sum + maxBytes(e) + 1, 0), COMMA, 0, list.length) : null;
    rows.runBytes.set(key, bytes);
  }
  return bytes ?? undefined;
}
