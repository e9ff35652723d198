import { readFileSync } from 'node:fs';

/**
 * CPU time the hypervisor gave to other guests ("steal"), from /proc/stat. On a shared virtual machine it is the
 * one kind of noise a benchmark can see but not avoid: a run during which the host took a few percent of the CPU
 * back measures slower and spikier, whatever the code. Linux only; elsewhere nothing is reported.
 */
export interface CpuTimes {
  steal: number;
  total: number;
}

export function cpuTimes(): CpuTimes | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user and nice).
    const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return fields.length >= 8 && total > 0 ? { steal: fields[7]!, total } : undefined;
  } catch {
    return undefined;
  }
}

/** Steal as a percentage of all CPU time between two readings, one decimal. */
export function stealPercent(before: CpuTimes | undefined, after: CpuTimes | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return Number((((after.steal - before.steal) / (after.total - before.total)) * 100).toFixed(1));
}
