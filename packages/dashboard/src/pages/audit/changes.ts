import type { Filter } from '../../api/types.js';
import { describeFilter } from '../../components/rule-builder/index.js';

interface StoredRule {
  segmentId?: string;
  filter: Filter;
}

/** A stored rule: its segment (by name when known) and its filter. */
export function describeRule(rule: StoredRule, segmentName: (id: string) => string): string {
  const filter = describeFilter(rule.filter);
  if (!rule.segmentId) return filter;
  const segment = `in segment ${segmentName(rule.segmentId)}`;
  return filter === 'everyone' ? segment : `${segment} AND ${filter}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFilter = (v: unknown): v is Filter => isRecord(v) && typeof v['type'] === 'string';

/** One changed field of an audit entry, each side rendered as lines a person reads (rules as rules). */
export interface FieldChange {
  field: string;
  before: string[] | null;
  after: string[] | null;
}

/** Fields that change on every write and say nothing to a reader. */
const NOISE = new Set(['id', 'updatedAt', 'createdAt', 'version', 'hash', 'orgId', 'appId', 'envId', 'flagId']);

function render(field: string, value: unknown, segmentName: (id: string) => string): string[] {
  if (field === 'rules' && Array.isArray(value)) {
    return value.length ? value.map((r, i) => `rule ${i + 1}: ${isRecord(r) && isFilter(r['filter']) ? describeRule(r as unknown as StoredRule, segmentName) : JSON.stringify(r)}`) : ['no rules (nobody)'];
  }
  if (field === 'variants' && Array.isArray(value)) {
    return value.length
      ? value.map((v) =>
          isRecord(v) ? `${String(v['key'])}: payload ${JSON.stringify(v['payload'])}${isFilter(v['filter']) ? ` when ${describeFilter(v['filter'])}` : ''}` : JSON.stringify(v),
        )
      : ['no variants'];
  }
  if (value === null || value === undefined) return ['none'];
  if (isFilter(value)) return [describeFilter(value)];
  if (typeof value === 'string') return [value];
  return [JSON.stringify(value)];
}

/** The fields that differ between `before` and `after` (a created or deleted resource shows its one side). */
export function changesOf(before: unknown, after: unknown, segmentName: (id: string) => string): FieldChange[] {
  if (!isRecord(before) && !isRecord(after)) return [];
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !NOISE.has(f));
  return fields
    .filter((f) => JSON.stringify(b[f] ?? null) !== JSON.stringify(a[f] ?? null))
    .map((f) => ({
      field: f,
      before: f in b ? render(f, b[f], segmentName) : null,
      after: f in a ? render(f, a[f], segmentName) : null,
    }));
}
