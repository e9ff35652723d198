import type { FlagDefinition } from './evaluation.js';
import type { Filter } from './schema/filter.js';
import { newScope, type Scope } from './targeting/scope.js';

/** A compiled flag as the table sees it. */
export interface OutcomeSource {
  /** Nothing in its rules or variants reads the context (`isContextFree`). */
  readonly contextFree: boolean;
  /** See `CompiledSnapshot.outcomes`. */
  outcome(scope: Scope): number;
}

/** Whether a filter reads nothing from the context (constants, and groups or negations of them). */
function contextFree(filter: Filter | null | undefined): boolean {
  if (typeof filter !== 'object' || filter === null) return true;
  switch (filter.type) {
    case 'context':
    case 'rolloutPercentage':
      return false;
    case 'group':
      return !Array.isArray(filter.filters) || filter.filters.every(contextFree);
    case 'negation':
      return contextFree(filter.filter);
    default:
      return true;
  }
}

export function isContextFree(definition: FlagDefinition): boolean {
  const rules = Array.isArray(definition.rules) ? definition.rules : [];
  const variants = Array.isArray(definition.config?.variants) ? definition.config.variants : [];
  return rules.every((rule) => contextFree(rule?.filter)) && variants.every((variant) => contextFree(variant?.filter));
}

/**
 * The outcome codes of a snapshot's flags: those of context-free flags (constant rules, or none) once, at compile
 * time; the others per context. Copying the fixed codes skips those flags' objects entirely, and every flag
 * object a request touches is memory it may have to fetch again under load.
 */
export class OutcomeTable {
  private readonly fixed: Int32Array;
  private readonly varying: Int32Array;

  constructor(private readonly list: readonly OutcomeSource[]) {
    this.fixed = new Int32Array(list.length);
    const varying: number[] = [];
    list.forEach((flag, i) => {
      if (flag.contextFree) this.fixed[i] = flag.outcome(newScope({}));
      else varying.push(i);
    });
    this.varying = Int32Array.from(varying);
  }

  fill(scope: Scope, out: Int32Array): void {
    out.set(this.fixed);
    const list = this.list;
    const varying = this.varying;
    for (let n = 0; n < varying.length; n++) {
      const i = varying[n]!;
      out[i] = list[i]!.outcome(scope);
    }
  }
}
