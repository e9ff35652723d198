import { compileSnapshot, type FlagDefinition } from '@flagmount/engine';
const flag = (key: string, rollout: boolean): FlagDefinition => ({ key, targetingVersion: 1, rules: [
  { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } },
  ...(rollout ? [{ filter: { type: 'rolloutPercentage' as const, key, partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } }] : [])] });
const plain = compileSnapshot({ flagStateVersion: 1, flags: Array.from({ length: 50 }, (_, i) => flag(`flag-${i}`, false)) });
const fifty = compileSnapshot({ flagStateVersion: 1, flags: Array.from({ length: 50 }, (_, i) => flag(`flag-${i}`, true)) });
const c = { user: { id: 'user-42' }, company: { plan: 'free' } };
const M = 20000;
const subjects: Record<string, () => void> = {
  'plain 50': () => { for (let i = 0; i < M; i++) plain.evaluateAll(c); },
  'plain 50 via evaluate': () => { for (let i = 0; i < M; i++) for (const k of plain.keys) plain.evaluate(k, c); },
  'rollout 50': () => { for (let i = 0; i < M; i++) fifty.evaluateAll(c); },
};
const res: Record<string, number[]> = {};
for (let r = 0; r < 7; r++) for (const [k, f] of Object.entries(subjects)) { const t = process.cpuUsage(); f(); const d = process.cpuUsage(t); (res[k] ??= []).push((d.user + d.system) * 1000 / M); }
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(`cache=${process.env.FM_ROLLOUT_CACHE ?? 0}`, k.padEnd(24), v.slice(0, 5).map((x) => (x / 1000).toFixed(2) + 'µs').join(' ')); }
