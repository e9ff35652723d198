import { SEGMENTS, type Condition, type MixFlag } from './flag-mix.js';
import type { BenchContext } from './contexts.js';

/**
 * What a flag of the mix must evaluate to for a context, for every kind but rollout (whose hash differs between
 * systems by design: Reflag's SHA-256 bucket vs Unleash's murmurhash). Used to check that Flagmount and Unleash
 * really serve the same flags before timing them, and to tell when Unleash's frontend cache has caught up.
 */
function valueOf(context: BenchContext, field: Condition['field']): string {
  if (field === 'user.plan') return context.user.plan;
  if (field === 'user.country') return context.user.country;
  return context.company.tier;
}

const matches = (context: BenchContext, condition: Condition) => condition.values.includes(valueOf(context, condition.field));

/** `undefined` for rollout flags. */
export function expectedValue(flag: MixFlag, context: BenchContext): boolean | undefined {
  switch (flag.kind) {
    case 'constant':
      return flag.on;
    case 'attribute':
      return matches(context, flag.condition);
    case 'segment':
      return matches(context, SEGMENTS[flag.segment]!.condition);
    case 'rollout':
      return undefined;
  }
}

/** Keys of the deterministic (non-rollout) flags that must be on, sorted. */
export function expectedOnKeys(flags: MixFlag[], context: BenchContext): string[] {
  return flags.filter((f) => expectedValue(f, context) === true).map((f) => f.key).sort();
}

/** The same set read from an answer: the enabled keys that are not rollout flags. */
export function deterministicOn(flags: MixFlag[], enabledKeys: Iterable<string>): string[] {
  const rollout = new Set(flags.filter((f) => f.kind === 'rollout').map((f) => f.key));
  return [...enabledKeys].filter((k) => !rollout.has(k)).sort();
}

export const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((k, i) => k === b[i]);
