import type { ResolvedOptions } from '../../options.js';

/** Whether a caller holding `keyKind` may opt users or companies in, under the instance's `optIn` option. */
export function optInAllowed(policy: ResolvedOptions['optIn'], keyKind: 'publishable' | 'secret'): boolean {
  if (policy === 'off') return false;
  return policy === 'publishable' || keyKind === 'secret';
}
