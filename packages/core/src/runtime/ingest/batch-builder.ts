import { newId } from '../../domain/ids.js';
import type { EntityUpsert, IngestBatch } from '../../ingestion/ingest-batch.js';
import type { CompanyBody } from '../../schemas/company.js';
import type { EventBody } from '../../schemas/event.js';
import type { FeatureEventBody } from '../../schemas/feature-event.js';
import type { PromptEventBody } from '../../schemas/prompt-event.js';
import type { UserBody } from '../../schemas/user.js';
import type {
  CheckEventRecord,
  FeedbackRecord,
  MembershipRecord,
  PromptEventRecord,
  TrackEventRecord,
} from '../../storage/records.js';
import { idString } from '../environment.js';
import { addCheck, addTrack, emptyStats, type StatsDeltas } from './stats.js';

const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? (value.length ? value : null) : typeof value === 'number' ? String(value) : null;

const memberId = (group: unknown, name: string): string | null =>
  typeof group === 'object' && group !== null ? idOf((group as Record<string, unknown>)[name]) : null;

/**
 * Turns validated runtime bodies into one `IngestBatch`: entity merges, memberships, events and the stats deltas
 * they imply. A single endpoint adds one item, `/bulk` many; either way the batch is submitted once.
 */
export class BatchBuilder {
  private readonly entities: EntityUpsert[] = [];
  private readonly memberships: MembershipRecord[] = [];
  private readonly tracks: TrackEventRecord[] = [];
  private readonly checks: CheckEventRecord[] = [];
  private readonly prompts: PromptEventRecord[] = [];
  private readonly feedback: FeedbackRecord[] = [];
  private readonly stats: StatsDeltas = emptyStats();

  constructor(
    private readonly envId: string,
    /** The app's flag keys, archived included: an event with one of these names is a track of that flag. */
    private readonly flagKeys: { has(key: string): boolean },
  ) {}

  user(body: UserBody, at: string): void {
    this.entities.push({ envId: this.envId, type: 'user', id: idString(body.userId), attributes: body.attributes ?? {}, at });
  }

  company(body: CompanyBody, at: string): void {
    const companyId = idString(body.companyId);
    this.entities.push({ envId: this.envId, type: 'company', id: companyId, attributes: body.attributes ?? {}, at });
    if (body.userId !== undefined) {
      const userId = idString(body.userId);
      this.memberships.push({ envId: this.envId, companyId, userId, createdAt: at });
      // The user of a membership exists (runtime-api.md: "associates that user with the company"), as after POST /user
      // without attributes: a merge of none, so a stored user keeps what it has.
      this.entities.push({ envId: this.envId, type: 'user', id: userId, attributes: {}, at });
    }
  }

  event(body: EventBody, at: string): void {
    const userId = idString(body.userId);
    const companyId = body.companyId === undefined ? null : idString(body.companyId);
    this.tracks.push({
      id: newId('ev'),
      envId: this.envId,
      userId,
      companyId,
      event: body.event,
      attributes: body.attributes ?? {},
      timestamp: at,
    });
    if (this.flagKeys.has(body.event)) addTrack(this.stats, { envId: this.envId, flagKey: body.event, userId, companyId, at });
  }

  check(body: FeatureEventBody, at: string): void {
    const userId = memberId(body.evalContext?.user, 'id');
    const companyId = memberId(body.evalContext?.company, 'id');
    this.checks.push({
      id: newId('ev'),
      envId: this.envId,
      action: body.action,
      flagKey: body.key,
      targetingVersion: body.targetingVersion ?? null,
      userId,
      companyId,
      evalContext: body.evalContext ?? null,
      // A config check of a flag the client does not know comes without a result: stored as the node SDK's `{}`.
      evalResult: body.evalResult ?? {},
      evalRuleResults: body.evalRuleResults ?? null,
      evalMissingFields: body.evalMissingFields ?? null,
      timestamp: at,
    });
    addCheck(this.stats, { envId: this.envId, flagKey: body.key, userId, companyId, exposure: body.evalResult === true, at });
  }

  prompt(body: PromptEventBody, at: string): void {
    this.prompts.push({
      id: newId('ev'),
      envId: this.envId,
      action: body.action,
      featureId: body.featureId ?? null,
      promptId: body.promptId ?? null,
      userId: idString(body.userId),
      promptedQuestion: body.promptedQuestion ?? null,
      timestamp: at,
    });
  }

  addFeedback(row: FeedbackRecord): void {
    this.feedback.push(row);
  }

  /** Entities this batch writes: their cached remote context is dropped once it commits. */
  touchedEntities(): Array<{ envId: string; type: 'user' | 'company'; id: string }> {
    return this.entities.map((e) => ({ envId: e.envId, type: e.type, id: e.id }));
  }

  build(): IngestBatch {
    const batch: IngestBatch = {};
    if (this.entities.length) batch.entities = this.entities;
    if (this.memberships.length) batch.memberships = this.memberships;
    if (this.tracks.length) batch.tracks = this.tracks;
    if (this.checks.length) batch.checks = this.checks;
    if (this.prompts.length) batch.prompts = this.prompts;
    if (this.feedback.length) batch.feedback = this.feedback;
    if (this.stats.entityStats.length) batch.entityStats = this.stats.entityStats;
    if (this.stats.dailyStats.length) batch.dailyStats = this.stats.dailyStats;
    return batch;
  }
}
