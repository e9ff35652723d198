import { MISSING, type Accessor } from './context/flatten.js';
import type { FlagDefinition } from './evaluation.js';
import { leafFilters } from './filter-leaves.js';
import { sharedAccessor } from './targeting/intern.js';
import type { Scope } from './targeting/scope.js';

/** A compiled flag as a memo sees it: its outcome code for the scope's context (`CompiledSnapshot.outcomes`). */
export interface MemoMember {
  outcome(scope: Scope): number;
}

/** Operators whose answer moves with the clock ("N days ago"): a flag using one is never memoised. */
const CLOCK_OPERATORS: ReadonlySet<unknown> = new Set(['AFTER', 'BEFORE']);

/**
 * The context fields a flag's rules and variants read, sorted; null when its outcome depends on anything else
 * (the clock). An empty list means the flag is context-free.
 */
export function fieldsRead(definition: FlagDefinition): string[] | null {
  const fields = new Set<string>();
  for (const leaf of leafFilters(definition)) {
    if (leaf.type === 'context') {
      if (CLOCK_OPERATORS.has(leaf.operator)) return null;
      fields.add(String(leaf.field));
    } else if (leaf.type === 'rolloutPercentage') {
      fields.add(String(leaf.partialRolloutAttribute));
    }
  }
  return [...fields].sort();
}

/** `fieldsRead` found nothing: every context gets the same outcome. */
export const readsNothing = (reads: readonly string[] | null): boolean => reads !== null && reads.length === 0;

/**
 * Distinct values (or combinations of values) a memo keeps. Beyond it the fields are taken to identify users
 * rather than kinds of users (an id, an email) and the memo is dropped: a lookup that rarely hits only adds cost.
 */
export const MAX_MEMO_KEYS = 256;

/**
 * The outcome codes of the flags that read one same set of context fields, remembered by those fields' values.
 *
 * Outcome codes are a pure function of the field values a flag reads (the accessors turn every scalar into the
 * string the operators compare), so flags targeting a plan, a country or a tier give one answer per value, and
 * a request's 20 such flags cost a lookup instead of 20 evaluations. Under load those evaluations were the
 * largest share of the evaluate route's own CPU: each one touches its flag's filters, memory the network stack
 * has meanwhile pushed out of the caches. A value that is an array is not memoised.
 */
export class OutcomeMemo {
  private readonly reads: readonly Accessor[];
  private memo: Map<string, Int32Array> | null = new Map();
  /** The codes when the one field read is missing (a string key could be any text, so it has a slot of its own). */
  private whenMissing: Int32Array | undefined;

  constructor(
    fields: readonly string[],
    /** Indexes of the member flags in the snapshot's list (and so in the codes array). */
    private readonly members: Int32Array,
  ) {
    this.reads = fields.map(sharedAccessor);
  }

  fill(scope: Scope, list: readonly MemoMember[], out: Int32Array): void {
    const memo = this.memo;
    const key = memo === null ? undefined : this.key(scope.context);
    if (key === undefined) return fillOutcomes(scope, list, this.members, out);
    const known = key === MISSING ? this.whenMissing : memo!.get(key);
    const members = this.members;
    if (known !== undefined) {
      for (let n = 0; n < members.length; n++) out[members[n]!] = known[n]!;
      return;
    }
    fillOutcomes(scope, list, members, out);
    const codes = new Int32Array(members.length);
    for (let n = 0; n < members.length; n++) codes[n] = out[members[n]!]!;
    if (key === MISSING) this.whenMissing = codes;
    else if (memo!.size < MAX_MEMO_KEYS) memo!.set(key, codes);
    else this.memo = null;
  }

  /**
   * The values' key: the value itself for one field (MISSING for a missing one); for several, each value as its
   * length and text, or `-` when missing, so that no two combinations share a key. Undefined for an array.
   */
  private key(context: object): string | typeof MISSING | undefined {
    const reads = this.reads;
    if (reads.length === 1) {
      const value = reads[0]!(context);
      return typeof value === 'string' || value === MISSING ? value : undefined;
    }
    let key = '';
    for (let r = 0; r < reads.length; r++) {
      const value = reads[r]!(context);
      if (typeof value === 'string') key += `${value.length}:${value}`;
      else if (value === MISSING) key += '-';
      else return undefined;
    }
    return key;
  }
}

/** The codes of the flags at `indexes` of `list`, evaluated now, into `out` at the same indexes. */
export function fillOutcomes(scope: Scope, list: readonly MemoMember[], indexes: Int32Array, out: Int32Array): void {
  for (let n = 0; n < indexes.length; n++) {
    const i = indexes[n]!;
    out[i] = list[i]!.outcome(scope);
  }
}

/** Memoisable flags grouped by the fields they read (`fieldsRead` non-empty): one memo per group. */
export function memoGroups(reads: ReadonlyArray<readonly string[] | null>, varying: readonly number[]): OutcomeMemo[] {
  const groups = new Map<string, { fields: readonly string[]; members: number[] }>();
  for (const i of varying) {
    const fields = reads[i];
    if (!fields || fields.length === 0) continue;
    const id = JSON.stringify(fields);
    const group = groups.get(id);
    if (group) group.members.push(i);
    else groups.set(id, { fields, members: [i] });
  }
  return [...groups.values()].map((group) => new OutcomeMemo(group.fields, Int32Array.from(group.members)));
}
