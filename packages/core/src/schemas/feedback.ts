import { Type, type Static } from '@sinclair/typebox';
import { EntityIdSchema } from './context.js';
import { TimestampSchema } from './user.js';
import { Text } from './text.js';

/** `api` for direct calls; the browser SDK sends `sdk`, `widget` and `prompt`. */
export const FEEDBACK_SOURCES = ['api', 'sdk', 'widget', 'prompt'] as const;

export const FeedbackBodySchema = Type.Object(
  {
    feedbackId: Type.Optional(Type.String({ minLength: 1, description: 'Updates this feedback (created if unknown)' })),
    userId: EntityIdSchema,
    companyId: Type.Optional(EntityIdSchema),
    promptId: Type.Optional(Text({ minLength: 10, maxLength: 40 })),
    featureId: Type.Optional(Text({ minLength: 1, maxLength: 14 })),
    key: Type.Optional(Text({ minLength: 1, maxLength: 255, description: 'Flag key' })),
    question: Type.Optional(Text({ minLength: 1, maxLength: 256 })),
    promptedQuestion: Type.Optional(Text({ minLength: 1, maxLength: 256 })),
    source: Type.Optional(Type.Union(FEEDBACK_SOURCES.map((s) => Type.Literal(s)))),
    score: Type.Optional(Type.Number({ minimum: 1, maximum: 5, description: 'Satisfaction, 1 to 5' })),
    comment: Type.Optional(Text({ minLength: 1, maxLength: 4000 })),
    timestamp: Type.Optional(TimestampSchema),
  },
  { $id: 'FeedbackBody', description: 'At least one of score and comment is required' },
);
export type FeedbackBody = Static<typeof FeedbackBodySchema>;

export const FeedbackResponseSchema = Type.Object({ success: Type.Literal(true), feedbackId: Type.String() });

/** `POST /feedback/prompting-init` (browser SDK): Flagmount runs no prompt channel, so none is returned. */
export const PromptingInitBodySchema = Type.Object({ userId: Type.Optional(EntityIdSchema) });
