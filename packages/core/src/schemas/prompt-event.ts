import { Type, type Static } from '@sinclair/typebox';
import { EntityIdSchema } from './context.js';
import { TimestampSchema } from './user.js';
import { Text } from './text.js';

/** Feedback prompt lifecycle events of the browser SDK (`prompt-event` bulk items, `/feedback/prompt-events`). */
export const PROMPT_EVENT_ACTIONS = ['received', 'shown', 'dismissed'] as const;

export const PromptEventBodySchema = Type.Object(
  {
    action: Type.Union(PROMPT_EVENT_ACTIONS.map((a) => Type.Literal(a))),
    featureId: Type.Optional(Text({ minLength: 1, maxLength: 14 })),
    promptId: Type.Optional(Text({ minLength: 1, maxLength: 40 })),
    userId: EntityIdSchema,
    promptedQuestion: Type.Optional(Text({ maxLength: 256 })),
    timestamp: Type.Optional(TimestampSchema),
  },
  { $id: 'PromptEventBody' },
);
export type PromptEventBody = Static<typeof PromptEventBodySchema>;
