import { compileSnapshot, type FlagDefinition } from '@flagmount/engine';
const N = 200_000;
const ids = Array.from({ length: N }, (_, i) => `user-${Math.imul(i + 1, 2654435761) >>> 0}`);
const ctxs = ids.map((id, i) => ({ user: { id }, company: { plan: i % 10 ? 'free' : 'enterprise' } }));
const flag = (key: string): FlagDefinition => ({ key, targetingVersion: 1, rules: [
  { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } },
  { filter: { type: 'rolloutPercentage', key, partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } }] });
const one = compileSnapshot({ flagStateVersion: 1, flags: [flag('bench')] });
const fifty = compileSnapshot({ flagStateVersion: 1, flags: Array.from({ length: 50 }, (_, i) => flag(`flag-${i}`)) });
const M = 4000;
const subjects: Record<string, [number, () => void]> = {
  'single 1M-distinct': [N, () => { for (const c of ctxs) one.evaluate('bench', c); }],
  '50 same ctx': [M, () => { for (let i = 0; i < M; i++) fifty.evaluateAll(ctxs[1]!); }],
  '50 x 1000 users': [M, () => { for (let i = 0; i < M; i++) fifty.evaluateAll(ctxs[i % 1000]!); }],
  '50 distinct users': [M, () => { for (let i = 0; i < M; i++) fifty.evaluateAll(ctxs[(i * 7 + Math.floor(Math.random() * N)) % N]!); }],
};
const res: Record<string, number[]> = {};
for (let r = 0; r < 9; r++) for (const [k, [n, f]] of Object.entries(subjects)) { const t = process.cpuUsage(); f(); const d = process.cpuUsage(t); (res[k] ??= []).push((d.user + d.system) * 1000 / n); }
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(`cache=${process.env.FM_ROLLOUT_CACHE ?? 0}`, k.padEnd(20), v.slice(0, 5).map((x) => x.toFixed(0)).join(' ')); }
