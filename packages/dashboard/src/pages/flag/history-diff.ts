import type { ConfigVariant, Segment, StageHeader, StoredRule, UserHeader } from '../../api/types.js';
import { describeFilter } from '../../components/rule-builder/index.js';

/** One readable line of a change: a field with its old and new value, or a rule/variant added or removed. */
export interface ChangeLine {
  kind: 'field' | 'added' | 'removed' | 'note';
  text: string;
  before?: string;
  after?: string;
}

export interface Names {
  stages: StageHeader[];
  members: UserHeader[];
  segments: Segment[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  stageId: 'Stage',
  ownerUserId: 'Owner',
  permanent: 'Permanent',
  secret: 'Secret',
  archived: 'Archived',
};

function fieldValue(field: string, value: unknown, names: Names): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (field === 'stageId') return names.stages.find((s) => s.id === value)?.name ?? String(value);
  if (field === 'ownerUserId') return names.members.find((m) => m.id === value)?.name ?? String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export function ruleText(rule: StoredRule, names: Names): string {
  const segment = rule.segmentId ? (names.segments.find((s) => s.id === rule.segmentId)?.name ?? rule.segmentId) : undefined;
  return `${segment ? `In segment ${segment}: ` : ''}${describeFilter(rule.filter)}`;
}

const variantText = (v: ConfigVariant) => `${v.key} = ${JSON.stringify(v.payload)} for ${describeFilter(v.filter)}`;

/** Items of `before` and `after` compared whole: removed, added, and a note when only the order changed. */
function listDiff<T>(before: T[], after: T[], text: (item: T) => string, noun: string): ChangeLine[] {
  const key = (item: T) => JSON.stringify(item);
  const beforeKeys = before.map(key);
  const afterKeys = after.map(key);
  const lines: ChangeLine[] = [
    ...before.filter((_, i) => !afterKeys.includes(beforeKeys[i]!)).map((item) => ({ kind: 'removed' as const, text: `${noun}: ${text(item)}` })),
    ...after.filter((_, i) => !beforeKeys.includes(afterKeys[i]!)).map((item) => ({ kind: 'added' as const, text: `${noun}: ${text(item)}` })),
  ];
  if (!lines.length && beforeKeys.join('\n') !== afterKeys.join('\n')) lines.push({ kind: 'note', text: `${noun}s reordered` });
  return lines;
}

/**
 * An audit entry's before/after as a person reads it: the flag's fields by name (stage and owner by name), and
 * targeting as whole rules and variants, never flattened paths.
 */
export function describeChange(before: unknown, after: unknown, names: Names): ChangeLine[] {
  const b = obj(before) ?? {};
  const a = obj(after) ?? {};
  if ('rules' in a || 'rules' in b || 'variants' in a) {
    return [
      ...listDiff((b['rules'] as StoredRule[]) ?? [], (a['rules'] as StoredRule[]) ?? [], (r) => ruleText(r, names), 'Rule'),
      ...listDiff((b['variants'] as ConfigVariant[]) ?? [], (a['variants'] as ConfigVariant[]) ?? [], variantText, 'Variant'),
    ];
  }
  if (!obj(before)) return [{ kind: 'note', text: 'Created' }];
  if (!obj(after)) return [{ kind: 'note', text: 'Deleted' }];
  return Object.keys(FIELD_LABELS)
    .filter((f) => JSON.stringify(b[f] ?? null) !== JSON.stringify(a[f] ?? null))
    .map((f) => ({ kind: 'field', text: FIELD_LABELS[f]!, before: fieldValue(f, b[f], names), after: fieldValue(f, a[f], names) }));
}
