import type { FlagDefinition } from './evaluation.js';
import type { Filter } from './schema/filter.js';

/**
 * Every leaf of a flag's rule and variant filters, in order: groups and negations are walked through, anything
 * else (a context or rollout filter, a constant, an unknown type) is a leaf. Mirrors `compileFilter`, so that what
 * is worked out from the definition (the fields a flag reads, the rollouts it hashes) matches what was compiled.
 */
export function leafFilters(definition: FlagDefinition): Filter[] {
  const leaves: Filter[] = [];
  const visit = (filter: Filter | null | undefined): void => {
    if (typeof filter !== 'object' || filter === null) return;
    if (filter.type === 'group') {
      if (Array.isArray(filter.filters)) filter.filters.forEach(visit);
    } else if (filter.type === 'negation') {
      visit(filter.filter);
    } else {
      leaves.push(filter);
    }
  };
  const variants = Array.isArray(definition.config?.variants) ? definition.config.variants : [];
  for (const rule of Array.isArray(definition.rules) ? definition.rules : []) visit(rule?.filter);
  for (const variant of variants) visit(variant?.filter);
  return leaves;
}
