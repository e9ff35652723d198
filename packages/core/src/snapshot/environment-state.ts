import { compileSnapshot, type CompiledSnapshot } from '@flagmount/engine';
import type { EnvironmentRecord, FlagRecord } from '../storage/records.js';
import { buildSnapshot, type BuiltSnapshot, type FeatureDefinition, type SnapshotSource, type StageHeader } from './build-snapshot.js';

/** Everything the runtime needs to answer for one environment, built once per flag-state version. */
export class EnvironmentState {
  readonly environment: EnvironmentRecord;
  readonly version: number;
  readonly compiled: CompiledSnapshot;
  readonly flags: ReadonlyMap<string, FlagRecord>;
  /**
   * Every flag key of the app, archived flags included: a check or an event under one of these counts for that
   * flag. An archived flag is not served, but code that still checks or tracks it shows up in its activity.
   */
  readonly flagKeys: { has(key: string): boolean };
  /** See `BuiltSnapshot.emptyConfigVersions`. */
  readonly emptyConfigVersions: ReadonlyMap<string, number>;
  readonly stages: ReadonlyMap<string, StageHeader>;
  private featuresJson: string | undefined;
  private readonly built: BuiltSnapshot;

  constructor(source: SnapshotSource) {
    const built = buildSnapshot(source);
    this.environment = source.environment;
    this.version = source.environment.flagStateVersion;
    this.compiled = compileSnapshot(built.engine);
    this.built = built;
    this.flags = built.flags;
    const { flags, archivedKeys } = built;
    this.emptyConfigVersions = built.emptyConfigVersions;
    this.flagKeys = { has: (key) => flags.has(key) || archivedKeys.has(key) };
    this.stages = built.stages;
  }

  /** `GET /features` definitions, built on first use (see buildSnapshot). */
  get features(): FeatureDefinition[] {
    return this.built.features;
  }

  /** The `/features` body is the same for every caller of a version: serialise it once. */
  featuresBody(): string {
    this.featuresJson ??= JSON.stringify({ success: true, flagStateVersion: this.version, features: this.features });
    return this.featuresJson;
  }
}
