import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Timing helpers for a noisy 2-core machine: warm every subject up, interleave subjects round by round (rotating
 * the order, so no subject always runs right after the same neighbour or a GC), and report medians.
 *
 * The clock is the process's CPU time (user + system), not wall time: on a shared machine a batch can wait for a
 * core for longer than it runs, and that wait says nothing about the code. CPU time still counts the GC's helper
 * threads, which is work the subject caused. Wall-clock medians are kept alongside.
 */

export type Subject = {
  name: string;
  /** Runs `count` operations starting at `offset` of the workload; returns a checksum so nothing is optimised away. */
  run(offset: number, count: number): number | Promise<number>;
  /** Optional preparation before a timed batch (building inputs); not timed. */
  prepare?(offset: number, count: number): void | Promise<void>;
};

export interface Measurement {
  name: string;
  /** Median CPU ns per operation over the rounds. */
  median: number;
  samples: number[];
  /** Median wall-clock ns per operation. */
  wallMedian: number;
  checksum: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A full collection between a batch's preparation and its timing: the inputs `prepare` just built are promoted
 * then, so no subject pays for copying survivors it did not make (a subject that allocates nothing would otherwise
 * leave the copying of its inputs, and of what it retains, to whichever subject runs next and allocates). Exposed
 * at run time, so `npm run bench` needs no node flag. Then the batch waits for the GC's helper threads to finish
 * (sweeping a large heap goes on after `gc()` returns), whose CPU time it would otherwise be billed.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Waits (up to about a second) until the process uses less than a fifth of a core over 20 ms. */
async function quiesce(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const used = process.cpuUsage(cpu);
    if ((used.user + used.system) * 1000 < Number(process.hrtime.bigint() - start) / 5) return;
  }
}

export interface InterleaveOptions {
  rounds: number;
  /** Operations per subject per round. */
  batch: number;
  warmup: number;
  /** Round r measures operations [offsetOf(r), offsetOf(r) + batch). Defaults to r * batch. */
  offsetOf?: (round: number) => number;
  onRound?: (round: number) => void;
}

export async function interleave(subjects: Subject[], options: InterleaveOptions): Promise<Measurement[]> {
  const { rounds, batch, warmup } = options;
  const offsetOf = options.offsetOf ?? ((round: number) => round * batch);
  const samples = new Map(subjects.map((s) => [s.name, [] as number[]]));
  const wall = new Map(subjects.map((s) => [s.name, [] as number[]]));
  const checksums = new Map(subjects.map((s) => [s.name, 0]));

  for (const subject of subjects) {
    await subject.prepare?.(0, warmup);
    await subject.run(0, warmup);
  }
  for (let round = 0; round < rounds; round++) {
    const offset = offsetOf(round);
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(i + round) % subjects.length]!;
      await subject.prepare?.(offset, batch);
      gc();
      await quiesce();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      const checksum = await subject.run(offset, batch);
      const elapsed = Number(process.hrtime.bigint() - start);
      const used = process.cpuUsage(cpu);
      samples.get(subject.name)!.push(((used.user + used.system) * 1000) / batch);
      wall.get(subject.name)!.push(elapsed / batch);
      checksums.set(subject.name, checksums.get(subject.name)! + checksum);
    }
    options.onRound?.(round);
  }
  return subjects.map((s) => ({
    name: s.name,
    median: median(samples.get(s.name)!),
    samples: samples.get(s.name)!,
    wallMedian: median(wall.get(s.name)!),
    checksum: checksums.get(s.name)!,
  }));
}
