/**
 * The benchmark's flag set, described once and translated for each system (Flagmount's management API or store,
 * Unleash's admin API), so that every peer serves the same flags to the same contexts.
 *
 * Mix per 50 flags: 14 constant (10 on, 4 off), 14 attribute, 10 segment, 12 rollout.
 */

/** A context attribute the rules look at, with its Unleash context-field name. */
export const FIELDS = {
  'user.plan': 'plan',
  'user.country': 'country',
  'company.tier': 'tier',
} as const;
export type Field = keyof typeof FIELDS;

export interface Condition {
  field: Field;
  /** Matches when the attribute is one of these (Flagmount ANY_OF, Unleash IN). */
  values: string[];
}

export type MixFlag =
  | { key: string; kind: 'constant'; on: boolean }
  | { key: string; kind: 'attribute'; condition: Condition }
  | { key: string; kind: 'segment'; segment: number }
  | { key: string; kind: 'rollout'; percent: number };

export interface MixSegment {
  name: string;
  condition: Condition;
}

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export const COUNTRIES = ['us', 'de', 'fr', 'jp', 'br'] as const;
export const TIERS = ['startup', 'growth', 'enterprise'] as const;

export const SEGMENTS: MixSegment[] = [
  { name: 'Enterprise companies', condition: { field: 'company.tier', values: ['enterprise'] } },
  { name: 'EU users', condition: { field: 'user.country', values: ['de', 'fr'] } },
  { name: 'Paying users', condition: { field: 'user.plan', values: ['pro', 'enterprise'] } },
];

const ATTRIBUTE_CONDITIONS: Condition[] = [
  { field: 'user.plan', values: ['pro'] },
  { field: 'user.plan', values: ['enterprise'] },
  { field: 'user.plan', values: ['pro', 'enterprise'] },
  { field: 'user.country', values: ['us'] },
  { field: 'user.country', values: ['de', 'fr', 'jp'] },
  { field: 'company.tier', values: ['growth', 'enterprise'] },
  { field: 'company.tier', values: ['startup'] },
];

/** Position in each block of 50 → kind; deterministic, so every run and every system gets the same set. */
function kindAt(i: number): MixFlag['kind'] {
  const slot = i % 50;
  if (slot < 14) return 'constant';
  if (slot < 28) return 'attribute';
  if (slot < 38) return 'segment';
  return 'rollout';
}

export function flagMix(count: number): MixFlag[] {
  const flags: MixFlag[] = [];
  for (let i = 0; i < count; i++) {
    const key = `bench-flag-${String(i).padStart(5, '0')}`;
    const kind = kindAt(i);
    if (kind === 'constant') flags.push({ key, kind, on: i % 50 < 10 });
    else if (kind === 'attribute') flags.push({ key, kind, condition: ATTRIBUTE_CONDITIONS[i % ATTRIBUTE_CONDITIONS.length]! });
    else if (kind === 'segment') flags.push({ key, kind, segment: i % SEGMENTS.length });
    else flags.push({ key, kind, percent: [10, 25, 50, 75, 90][i % 5]! });
  }
  return flags;
}

export function describeMix(flags: MixFlag[]): string {
  const counts = { constant: 0, attribute: 0, segment: 0, rollout: 0 };
  for (const flag of flags) counts[flag.kind]++;
  return (
    `${flags.length} flags: ${counts.constant} constant, ${counts.attribute} attribute (ANY_OF on user.plan/user.country/company.tier), ` +
    `${counts.segment} segment (${SEGMENTS.length} segments), ${counts.rollout} rollout (user.id, 10–90 %)`
  );
}

const SEED_RANK = { rollout: 0, segment: 1, attribute: 2, constant: 3 } as const;

/**
 * The order in which seeders configure flags: rollout first, an always-on constant flag last. A system's cache
 * that shows the last flag on has caught up with every earlier change, so the deterministic-flag check also
 * proves the rollout flags (which it cannot check) are in place.
 */
export function seedOrder(flags: MixFlag[]): MixFlag[] {
  const rank = (f: MixFlag) => SEED_RANK[f.kind] * 2 + (f.kind === 'constant' && f.on ? 1 : 0);
  return [...flags].sort((a, b) => rank(a) - rank(b));
}
