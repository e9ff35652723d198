/** What every benchmark returns; `bench/run.ts` turns it into a section of RESULTS.md and an entry of results.json. */

export type Cell = string | number | null;

export interface BenchTable {
  /** Optional heading above the table. */
  title?: string;
  columns: string[];
  rows: Cell[][];
}

export interface BenchResult {
  /** Section title in RESULTS.md. */
  title: string;
  /** What was measured, in words: workload, sizes, repetitions. */
  workload: string;
  tables: BenchTable[];
  notes?: string[];
  /** Raw numbers for results.json (medians, samples…), free-form per bench. */
  data?: Record<string, unknown>;
}

export interface StoredResult extends BenchResult {
  /** When this bench started (each bench of a full run has its own time and load average). */
  measuredAt: string;
  environment: { node: string; platform: string; cpus: string; cores: number; loadAverage?: number; stealPercent?: number };
}

export type BenchModule = { default: () => Promise<BenchResult> };
