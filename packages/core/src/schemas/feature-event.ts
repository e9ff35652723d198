import { Type, type Static } from '@sinclair/typebox';
import { Text } from './text.js';

/**
 * Actions the Reflag clients send: `check` and `check-config` (node SDK), `check-is-enabled` and `check-config`
 * (browser SDK), `evaluate` and `evaluate-config` (seen in the spec's samples and Reflag's server-side events).
 */
export const FEATURE_EVENT_ACTIONS = ['check', 'check-is-enabled', 'check-config', 'evaluate', 'evaluate-config'] as const;
/** Actions whose `evalResult` may be an object (`{ key, payload }` of the selected config variant). */
export const CONFIG_ACTIONS: ReadonlySet<string> = new Set(['check-config', 'evaluate-config']);

/** An evaluation context as reported by a client: metadata, so only its shape is checked. */
export const EvalContextSchema = Type.Object(
  {
    user: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    company: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    other: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);

export const FeatureEventBodySchema = Type.Object(
  {
    action: Type.Union(FEATURE_EVENT_ACTIONS.map((a) => Type.Literal(a))),
    key: Text({ minLength: 1, maxLength: 255 }),
    targetingVersion: Type.Optional(Type.Number()),
    evalContext: Type.Optional(EvalContextSchema),
    evalResult: Type.Optional(
      Type.Union([Type.Boolean(), Type.Record(Type.String(), Type.Unknown())], {
        description:
          'boolean, required; for check-config / evaluate-config an object, or nothing (the browser SDK sends none for a flag it does not know; stored as {})',
      }),
    ),
    evalRuleResults: Type.Optional(Type.Array(Type.Boolean())),
    evalMissingFields: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'FeatureEventBody' },
);
export type FeatureEventBody = Static<typeof FeatureEventBodySchema>;
