import type { TSchema } from '@sinclair/typebox';
import { defineRoute, type Principal, type RouteDefinition } from '../../http/route.js';
import type { Services } from '../../services.js';
import { BulkBodySchema, BulkResponseSchema, SuccessResponseSchema, type BulkRejection } from '../../schemas/bulk.js';
import { CompanyBodySchema } from '../../schemas/company.js';
import { EventBodySchema } from '../../schemas/event.js';
import { FeatureEventBodySchema, type FeatureEventBody } from '../../schemas/feature-event.js';
import { FeedbackBodySchema, FeedbackResponseSchema, PromptingInitBodySchema } from '../../schemas/feedback.js';
import { PromptEventBodySchema } from '../../schemas/prompt-event.js';
import { UserBodySchema } from '../../schemas/user.js';
import type { FeedbackRecord } from '../../storage/records.js';
import { invalidateRemoteContext } from '../context/remote-context.js';
import { currentState, sdkEnvironment } from '../environment.js';
import { BatchBuilder } from './batch-builder.js';
import { addItem, bulkItemIssues, checkedItem, itemIssues, type RuntimeItem } from './items.js';

/** Submits through the group-commit writer: it resolves after the commit, so a 200 means stored. */
async function commit(services: Services, builder: BatchBuilder): Promise<void> {
  await services.ingestion.submit(builder.build());
  invalidateRemoteContext(services, builder.touchedEntities());
}

async function ingestOne(
  services: Services,
  principal: Principal,
  type: RuntimeItem['type'],
  body: unknown,
): Promise<FeedbackRecord | undefined> {
  const { environment } = sdkEnvironment(principal);
  const state = currentState(services, environment.id);
  const item = checkedItem(type, body);
  const builder = new BatchBuilder(environment.id, state.flagKeys);
  const feedback = await addItem(services, state, builder, item, new Map(), services.now().toISOString());
  await commit(services, builder);
  return feedback;
}

/**
 * Checks that an evaluation route records itself (OFREP: its providers send no events), through the very path of a
 * `POST /features/events` body: the same rules, the same batch builder, the same group-commit writer. Queued before
 * this returns, so a caller that answers right after has its checks in line; resolves once they are committed.
 */
export function ingestChecks(services: Services, envId: string, bodies: readonly FeatureEventBody[]): Promise<void> {
  const state = currentState(services, envId);
  const builder = new BatchBuilder(envId, state.flagKeys);
  const at = services.now().toISOString();
  for (const body of bodies) builder.check(checkedItem('feature-flag-event', body).body as FeatureEventBody, at);
  return commit(services, builder);
}

function ingestRoute(path: string, type: RuntimeItem['type'], schema: TSchema, operationId: string, summary: string) {
  return defineRoute({
    method: 'POST',
    path,
    operationId,
    summary,
    surface: 'runtime',
    tags: ['Runtime'],
    auth: { kind: 'sdk', keys: 'any' },
    body: schema,
    response: SuccessResponseSchema,
    async handle({ services, principal, body }) {
      await ingestOne(services, principal, type, body);
      return { success: true };
    },
  });
}

const feedbackRoute = defineRoute({
  method: 'POST',
  path: '/feedback',
  operationId: 'postFeedback',
  summary: 'Create feedback, or update it by feedbackId',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  body: FeedbackBodySchema,
  response: FeedbackResponseSchema,
  async handle({ services, principal, body }) {
    const row = await ingestOne(services, principal, 'feedback', body);
    return { success: true, feedbackId: row!.id };
  },
});

const bulkRoute = defineRoute({
  method: 'POST',
  path: '/bulk',
  operationId: 'postBulk',
  summary: 'Several operations at once; invalid items are skipped and listed, the others stored',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  body: BulkBodySchema,
  response: BulkResponseSchema,
  async handle({ services, principal, body }) {
    const { environment } = sdkEnvironment(principal);
    const state = currentState(services, environment.id);
    const builder = new BatchBuilder(environment.id, state.flagKeys);
    const pendingFeedback = new Map<string, FeedbackRecord>();
    const rejected: BulkRejection[] = [];
    const receivedAt = services.now().toISOString();
    for (const [index, value] of body.entries()) {
      const { item, issues } = bulkItemIssues(value as Record<string, unknown>);
      if (!item) rejected.push({ index, issues: issues ?? {} });
      else {
        // A valid item can still conflict with what is stored (feedback of another user): skipped like the rest.
        const conflict = await addItem(services, state, builder, item, pendingFeedback, receivedAt).then(
          () => undefined,
          (error: unknown) => itemIssues(error),
        );
        if (conflict) rejected.push({ index, issues: conflict });
      }
    }
    await commit(services, builder);
    if (rejected.length) {
      services.logger.debug('flagmount: /bulk skipped invalid items', { envId: environment.id, rejected });
    }
    return { success: true, rejected };
  },
});

/**
 * The browser SDK asks for a feedback-prompt channel. Flagmount does not push feedback prompts, so it answers
 * without a channel and the SDK simply does not prompt.
 */
const promptingInitRoute = defineRoute({
  method: 'POST',
  path: '/feedback/prompting-init',
  operationId: 'postFeedbackPromptingInit',
  summary: 'Automatic feedback prompting status for a user (no prompt channel is offered)',
  surface: 'runtime',
  tags: ['Runtime'],
  auth: { kind: 'sdk', keys: 'any' },
  body: PromptingInitBodySchema,
  response: SuccessResponseSchema,
  async handle({ principal }) {
    sdkEnvironment(principal);
    return { success: true };
  },
});

export const ingestRoutes: RouteDefinition[] = [
  ingestRoute('/user', 'user', UserBodySchema, 'postUser', 'Create or update a user'),
  ingestRoute('/company', 'company', CompanyBodySchema, 'postCompany', 'Create or update a company; userId associates a user'),
  ingestRoute('/event', 'event', EventBodySchema, 'postEvent', 'Track an event (an event named like a flag counts as its track)'),
  ingestRoute('/features/events', 'feature-flag-event', FeatureEventBodySchema, 'postFeatureEvent', 'Record a flag check'),
  ingestRoute('/feedback/prompt-events', 'prompt-event', PromptEventBodySchema, 'postPromptEvent', 'Record a feedback prompt event'),
  feedbackRoute,
  bulkRoute,
  promptingInitRoute,
];
