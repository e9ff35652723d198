import { Type, type TSchema } from '@sinclair/typebox';
import './formats.js';
import { Text } from './text.js';

/**
 * Building blocks shared by the management resource schemas. Every spec limit lives in a schema, so that the
 * same definition validates requests, types the handlers and documents the OpenAPI description.
 */

/** ISO 8601 UTC timestamp (the spec's "string timestamp"). */
export const TimestampSchema = Type.String({ format: 'date-time' });
export const NullableTimestampSchema = Type.Union([TimestampSchema, Type.Null()]);

/** appId, envId, flagId, …: "string, min length 1". */
export const IdSchema = Type.String({ minLength: 1 });

/**
 * Names sent in request bodies. The spec bounds a flag name to 1..255 in responses only; accepting a longer name
 * would produce a response that breaks that bound, so requests get the same bound (and every other resource's
 * name follows the same rule, for one rule to remember).
 */
export const NameSchema = Text({ minLength: 1, maxLength: 255 });

/** Description in flag bodies: at most 8192 characters; `null` clears it. */
export const DescriptionSchema = Text({ maxLength: 8192 });

/** companyId and userId in paths: 1..128 characters. */
export const EntityIdSchema = Text({ minLength: 1, maxLength: 128 });

/**
 * `order` of a stage or an environment in a request: past 2^53 a JSON number is no longer the integer sent
 * (9007199254740993 reads as …992), so such an order is refused rather than stored as another.
 */
export const OrderSchema = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const SortOrderSchema = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' });
export type SortOrder = 'asc' | 'desc';

export const NotificationDestinationSchema = Type.Union([Type.Literal('issueTrackerComment'), Type.Literal('chat')]);

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Request bodies reject unknown properties (spec: "no unknown properties"). */
export const strictObject = <P extends Parameters<typeof Type.Object>[0]>(properties: P, options: object = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** Path parameter objects. */
export const AppParamsSchema = Type.Object({ appId: IdSchema });
export const AppEnvParamsSchema = Type.Object({ appId: IdSchema, envId: IdSchema });

/** What a mutation that changed flag state answers next to its resource: callers wait on these with `waitForVersion`. */
export const FlagStateVersionsSchema = Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
  description: 'Environment id → flagStateVersion, for every environment of the app',
});

/** Answer of DELETE routes: what was removed. */
export const DeletedSchema = Type.Object(
  { id: IdSchema, deleted: Type.Literal(true) },
  { additionalProperties: false, $id: 'Deleted' },
);

/** A deletion that changed the flag state of every environment of the app (a segment). */
export const DeletedWithVersionsSchema = Type.Object(
  { id: IdSchema, deleted: Type.Literal(true), flagStateVersions: FlagStateVersionsSchema },
  { additionalProperties: false },
);
