import { compileSnapshot, rolloutHash } from '@flagmount/engine';
import { FlagdCore } from '@openfeature/flagd-core';
const N = 200_000;
const ids = Array.from({ length: N }, (_, i) => `user-${Math.imul(i + 1, 2654435761) >>> 0}`);
const ctxs = ids.map((id, i) => ({ user: { id }, company: { plan: i % 10 ? 'free' : 'enterprise' } }));
const snap = compileSnapshot({ flagStateVersion: 1, flags: [{ key: 'bench', targetingVersion: 1, rules: [
  { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } },
  { filter: { type: 'rolloutPercentage', key: 'bench', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 50000 } }] }] });
const noRollout = compileSnapshot({ flagStateVersion: 1, flags: [{ key: 'bench', targetingVersion: 1, rules: [
  { filter: { type: 'context', field: 'company.plan', operator: 'IS', values: ['enterprise'] } }] }] });
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const flagd = new FlagdCore(undefined, silent);
flagd.setConfigurations(JSON.stringify({ flags: { bench: { state: 'ENABLED', variants: { on: true, off: false }, defaultVariant: 'off', targeting: { if: [{ '==': [{ var: 'company.plan' }, 'enterprise'] }, 'on', { fractional: [{ cat: [{ var: '$flagd.flagKey' }, { var: 'user.id' }] }, ['on', 50], ['off', 50]] }] } } } }));
const subjects: Record<string, () => number> = {
  flagmount: () => { let n = 0; for (const c of ctxs) if (snap.evaluate('bench', c)!.isEnabled) n++; return n; },
  'flagmount-no-rollout': () => { let n = 0; for (const c of ctxs) if (noRollout.evaluate('bench', c)!.isEnabled) n++; return n; },
  'hash-only': () => { let n = 0; for (const id of ids) if (rolloutHash('bench.' + id) < 50000) n++; return n; },
  flagd: () => { let n = 0; for (const c of ctxs) if (flagd.resolveBooleanEvaluation('bench', false, c, silent).value) n++; return n; },
};
const res: Record<string, number[]> = {};
for (let r = 0; r < 11; r++) for (const [k, f] of Object.entries(subjects)) { const t = process.cpuUsage(); f(); const d = process.cpuUsage(t); (res[k] ??= []).push((d.user + d.system) * 1000 / N); }
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(k.padEnd(22), v.map((x) => x.toFixed(0)).join(' ')); }
