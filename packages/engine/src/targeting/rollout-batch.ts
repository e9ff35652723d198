import type { Accessor } from '../context/flatten.js';
import type { FlagDefinition } from '../evaluation.js';
import { leafFilters } from '../filter-leaves.js';
import type { RolloutPercentageFilter } from '../schema/filter.js';
import { sharedAccessor } from './intern.js';
import { decidedRollout, rolloutPrefix } from './rollout.js';
import { bucketOfWord, rolloutHasher, type RolloutBatches, type RolloutHasher } from './rollout-hash.js';
import { attachNativeBatch, ONE_BLOCK_MAX } from './sha256-block.js';

/** A rollout filter that hashes: the field it reads and the prefix it hashes the value after. */
export interface RolloutUse {
  field: string;
  prefix: string;
}

/** The rollout filters of a flag's rules and variants that hash. */
export function rolloutsOf(definition: FlagDefinition): RolloutUse[] {
  // Kept for the snapshot's life: `map` sizes the array exactly, where one grown by `push` keeps spare slots.
  return leafFilters(definition)
    .filter((leaf): leaf is RolloutPercentageFilter => leaf.type === 'rolloutPercentage' && decidedRollout(leaf) === null)
    .map((leaf) => ({ field: String(leaf.partialRolloutAttribute), prefix: rolloutPrefix(leaf, definition.key) }));
}

/** Bytes per prefix slot of a native batch; the slot's last byte holds the prefix's length. */
const SLOT = 64;

/**
 * The rollout hashes of one field's filters, computed together when the first of them meets a new value: one call
 * of the SHA-NI addon hashes every prefix with that value, four at a time (sha256_native.c), where one call per
 * filter paid the call and a whole hash's latency each time. Evaluating all flags for a new user was the evaluate
 * route's largest single cost, 12 rollout flags of the HTTP benchmark's 50 about a sixth of its core.
 */
class FieldBatch {
  private constructor(
    private readonly hashers: readonly RolloutHasher[],
    /** The value's bytes, as the addon reads them. */
    private readonly value: Uint8Array,
    /** The addon's answer: one first word per hasher. */
    private readonly words: Int32Array,
    private readonly firstWords: (valueLength: number) => void,
  ) {}

  /** A batch over these hashers, or null without the addon's batches. */
  static of(hashers: readonly RolloutHasher[]): FieldBatch | null {
    const prefixes = new Uint8Array(hashers.length * SLOT);
    hashers.forEach((hasher, i) => {
      const { text } = hasher.prefix;
      for (let j = 0; j < text.length; j++) prefixes[i * SLOT + j] = text.charCodeAt(j);
      prefixes[i * SLOT + SLOT - 1] = text.length;
    });
    const value = new Uint8Array(SLOT);
    const words = new Int32Array(hashers.length);
    const firstWords = attachNativeBatch(prefixes, value, words);
    return firstWords === null ? null : new FieldBatch(hashers, value, words, firstWords);
  }

  hashAll(value: string): void {
    const length = value.length;
    if (length > ONE_BLOCK_MAX) return;
    const bytes = this.value;
    for (let i = 0; i < length; i++) {
      const c = value.charCodeAt(i);
      // Not ASCII: each filter hashes it its own way (rollout-hash.ts).
      if (c > 0x7f) return;
      bytes[i] = c;
    }
    this.firstWords(length);
    const hashers = this.hashers;
    const words = this.words;
    for (let i = 0; i < hashers.length; i++) {
      const hasher = hashers[i]!;
      // A prefix and value too long for one block were not hashed: that filter hashes on its own.
      if (hasher.prefix.length + length > ONE_BLOCK_MAX) continue;
      hasher.lastHash = bucketOfWord(words[i]!);
      hasher.lastValue = value;
    }
  }
}

/**
 * The batches of one compiled snapshot, by field: made active while it evaluates all its flags (the outcome
 * table), so that a rollout filter meeting a new value hashes it for every filter of that field. Not while it
 * evaluates one flag: a single check would then pay for every rollout of the snapshot.
 */
export class RolloutBatchSet implements RolloutBatches {
  private constructor(private readonly byField: ReadonlyMap<Accessor, FieldBatch>) {}

  /** The batches of these rollout filters, or null when none would hash more than one prefix, or without the addon. */
  static of(uses: readonly RolloutUse[]): RolloutBatchSet | null {
    const prefixesByField = new Map<string, Set<string>>();
    for (const { field, prefix } of uses) {
      let prefixes = prefixesByField.get(field);
      if (!prefixes) prefixesByField.set(field, (prefixes = new Set()));
      prefixes.add(prefix);
    }
    const byField = new Map<Accessor, FieldBatch>();
    for (const [field, prefixes] of prefixesByField) {
      const hashers = [...prefixes].map(rolloutHasher).filter((hasher) => hasher.prefix.usable);
      if (hashers.length < 2) continue;
      const batch = FieldBatch.of(hashers);
      if (batch === null) return null;
      byField.set(sharedAccessor(field), batch);
    }
    return byField.size ? new RolloutBatchSet(byField) : null;
  }

  hashAll(read: Accessor, value: string): void {
    this.byField.get(read)?.hashAll(value);
  }
}
