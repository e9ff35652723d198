import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, NullableTimestampSchema, strictObject, TimestampSchema } from './common.js';
import { TargetingBodySchema } from './targeting.js';

/**
 * Extension: a targeting change scheduled for a time (`targeting` is the body of `PUT …/targeting/{envId}`). It is
 * applied once, at `at`, by whichever instance sharing the store gets there first.
 */
export const ScheduleStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('applied'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
]);

export const ScheduleSchema = Type.Object(
  {
    id: IdSchema,
    envId: IdSchema,
    flagKey: Type.String({ minLength: 1 }),
    at: TimestampSchema,
    status: ScheduleStatusSchema,
    targeting: TargetingBodySchema,
    /** Who scheduled it (a management key id or a person): the applied change is audited under this actor. */
    createdBy: Type.String({ minLength: 1 }),
    createdAt: TimestampSchema,
    appliedAt: NullableTimestampSchema,
    /** The environment's flagStateVersion holding the applied change (wait for it with `waitForVersion`). */
    flagStateVersion: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    /** Why it failed, or who cancelled it. */
    reason: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false, $id: 'Schedule' },
);
export type Schedule = Static<typeof ScheduleSchema>;

export const ScheduleFlagParamsSchema = Type.Object({ appId: IdSchema, flagKey: Type.String({ minLength: 1 }) });
export const ScheduleParamsSchema = Type.Object({ appId: IdSchema, flagKey: Type.String({ minLength: 1 }), scheduleId: IdSchema });

export const CreateScheduleBodySchema = strictObject({
  envId: IdSchema,
  /** When to apply it: a time in the future. */
  at: TimestampSchema,
  targeting: TargetingBodySchema,
});
export type CreateScheduleBody = Static<typeof CreateScheduleBodySchema>;

export const ListSchedulesQuerySchema = Type.Object({ envId: Type.Optional(IdSchema) });

export const ScheduleResponseSchema = Type.Object({ schedule: ScheduleSchema }, { additionalProperties: false });
/** Pending first (soonest first), then the others, newest `at` first. */
export const ListSchedulesResponseSchema = Type.Object({ data: Type.Array(ScheduleSchema) }, { additionalProperties: false });
