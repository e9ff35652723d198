import type { TSchema } from '@sinclair/typebox';
import { newId } from '../../domain/ids.js';
import { HttpError, invalidRequest, type Issues } from '../../http/http-error.js';
import { validate } from '../../http/validate.js';
import type { Services } from '../../services.js';
import { CompanyBodySchema, type CompanyBody } from '../../schemas/company.js';
import { EventBodySchema, type EventBody } from '../../schemas/event.js';
import { CONFIG_ACTIONS, FeatureEventBodySchema, type FeatureEventBody } from '../../schemas/feature-event.js';
import { FeedbackBodySchema, type FeedbackBody } from '../../schemas/feedback.js';
import { PromptEventBodySchema, type PromptEventBody } from '../../schemas/prompt-event.js';
import { UserBodySchema, type UserBody } from '../../schemas/user.js';
import type { EnvironmentState } from '../../snapshot/environment-state.js';
import type { FeedbackRecord } from '../../storage/records.js';
import { idString, timestampOf } from '../environment.js';
import type { BatchBuilder } from './batch-builder.js';

/** A validated runtime item of any type, as a single endpoint or a `/bulk` entry carries it. */
export type RuntimeItem =
  | { type: 'user'; body: UserBody }
  | { type: 'company'; body: CompanyBody }
  | { type: 'event'; body: EventBody }
  | { type: 'feature-flag-event'; body: FeatureEventBody }
  | { type: 'feedback'; body: FeedbackBody }
  | { type: 'prompt-event'; body: PromptEventBody };

const SCHEMAS: Record<RuntimeItem['type'], TSchema> = {
  user: UserBodySchema,
  company: CompanyBodySchema,
  event: EventBodySchema,
  'feature-flag-event': FeatureEventBodySchema,
  feedback: FeedbackBodySchema,
  'prompt-event': PromptEventBodySchema,
};

export const isItemType = (type: unknown): type is RuntimeItem['type'] =>
  typeof type === 'string' && Object.prototype.hasOwnProperty.call(SCHEMAS, type);

/** Rules a schema cannot say: throws the same 400 as schema validation, with the field path. */
function checkRules(item: RuntimeItem, prefix: string): void {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (item.type === 'feedback' && item.body.score === undefined && item.body.comment === undefined) {
    const message = 'At least one of score and comment is required';
    throw invalidRequest('Invalid feedback', { [at('score')]: [message], [at('comment')]: [message] });
  }
  if (item.type === 'feature-flag-event' && typeof item.body.evalResult !== 'boolean' && !CONFIG_ACTIONS.has(item.body.action)) {
    const message = 'evalResult must be a boolean; an object, or none, is accepted only for check-config and evaluate-config';
    throw invalidRequest('Invalid flag event', { [at('evalResult')]: [message] });
  }
}

/** Validates `value` as an item of `type`; throws a 400 `invalid_request` with dotted field paths. */
export function parseItem(type: RuntimeItem['type'], value: unknown, what: string, prefix = ''): RuntimeItem {
  return checkedItem(type, validate(SCHEMAS[type], value, what, prefix), prefix);
}

/** An item whose body the route's schema already validated: only the cross-field rules remain. */
export function checkedItem(type: RuntimeItem['type'], body: unknown, prefix = ''): RuntimeItem {
  const item = { type, body } as RuntimeItem;
  checkRules(item, prefix);
  return item;
}

/** The issues of an invalid `/bulk` item, or `undefined` when it is valid (then `parsed` holds it). */
export function bulkItemIssues(value: Record<string, unknown>): { item?: RuntimeItem; issues?: Issues } {
  if (!isItemType(value['type'])) {
    return { issues: { type: [`Expected one of: ${Object.keys(SCHEMAS).join(', ')}`] } };
  }
  try {
    return { item: parseItem(value['type'], value, 'bulk item') };
  } catch (error) {
    return { issues: itemIssues(error) };
  }
}

/** The issues of a 400 about one `/bulk` item; any other error is rethrown. */
export function itemIssues(error: unknown): Issues {
  if (error instanceof HttpError && error.status === 400) return error.issues ?? { '': [error.message] };
  throw error;
}

/**
 * Adds a validated item to the batch. Feedback needs the stored row to update (`feedbackId`), so it is the one
 * async case; `pendingFeedback` lets a later item of the same batch update an earlier one.
 */
export async function addItem(
  services: Services,
  state: EnvironmentState,
  builder: BatchBuilder,
  item: RuntimeItem,
  pendingFeedback: Map<string, FeedbackRecord>,
  receivedAt: string,
): Promise<FeedbackRecord | undefined> {
  // A check event has no `timestamp` in the spec, so its schema leaves one unchecked (unknown runtime properties are
  // ignored): it is stamped on arrival like any item sent without one.
  const at = timestampOf(receivedAt, item.type === 'feature-flag-event' ? undefined : item.body.timestamp);
  switch (item.type) {
    case 'user':
      builder.user(item.body, at);
      return undefined;
    case 'company':
      builder.company(item.body, at);
      return undefined;
    case 'event':
      builder.event(item.body, at);
      return undefined;
    case 'feature-flag-event':
      builder.check(item.body, at);
      return undefined;
    case 'prompt-event':
      builder.prompt(item.body, at);
      return undefined;
    case 'feedback': {
      const row = await feedbackRecord(services, state, item.body, at, pendingFeedback);
      pendingFeedback.set(row.id, row);
      builder.addFeedback(row);
      return row;
    }
  }
}

/**
 * Creates feedback, or updates the feedback named by `feedbackId` field by field (fields not sent keep their
 * stored value). An unknown `feedbackId` creates feedback under that id: the runtime API has no 404. Feedback of
 * another user is a 400: the publishable key is public and answers hand out feedback ids, so anyone could
 * otherwise rewrite a user's feedback and make it theirs.
 * `key` and `featureId` complete each other from the environment's flags (featureId is the flag's id).
 */
async function feedbackRecord(
  services: Services,
  state: EnvironmentState,
  body: FeedbackBody,
  at: string,
  pending: Map<string, FeedbackRecord>,
): Promise<FeedbackRecord> {
  const envId = state.environment.id;
  const id = body.feedbackId ?? newId('fb');
  const previous = body.feedbackId
    ? (pending.get(body.feedbackId) ?? (await services.storage.feedback.get(envId, body.feedbackId)))
    : undefined;
  const userId = idString(body.userId);
  if (previous && previous.userId !== userId) {
    const message = 'feedbackId names feedback of another user';
    throw invalidRequest(message, { feedbackId: [message] });
  }
  let flagKey = body.key ?? null;
  let featureId = body.featureId ?? null;
  if (flagKey !== null && featureId === null) featureId = state.flags.get(flagKey)?.id ?? null;
  if (featureId !== null && flagKey === null) {
    for (const flag of state.flags.values()) if (flag.id === featureId) flagKey = flag.key;
  }
  const pick = <T>(sent: T | undefined, stored: T | null | undefined): T | null =>
    sent !== undefined ? sent : (stored ?? null);
  return {
    id,
    envId,
    userId,
    companyId: body.companyId !== undefined ? idString(body.companyId) : (previous?.companyId ?? null),
    flagKey: flagKey ?? previous?.flagKey ?? null,
    featureId: featureId ?? previous?.featureId ?? null,
    promptId: pick(body.promptId, previous?.promptId),
    question: pick(body.question, previous?.question),
    promptedQuestion: pick(body.promptedQuestion, previous?.promptedQuestion),
    source: body.source ?? previous?.source ?? 'api',
    score: pick(body.score, previous?.score),
    comment: pick(body.comment, previous?.comment),
    createdAt: previous?.createdAt ?? at,
    updatedAt: at,
  };
}
