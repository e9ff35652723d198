import { ConfigVariantSchema, FilterSchema } from '@flagmount/engine';
import { Type, type Static } from '@sinclair/typebox';
import { FlagKeyFormatSchema } from './app.js';
import { DescriptionSchema, FlagStateVersionsSchema, IdSchema, NameSchema, nullable, OrderSchema, strictObject, TimestampSchema } from './common.js';
import { FlagKeySchema } from './flag.js';
import { SegmentTypeSchema } from './segment.js';
import { ColorSchema } from './stage.js';
import { PrerequisiteSchema, TargetingBodySchema } from './targeting.js';

/**
 * Extension: an app's setup as one document (`GET /apps/{appId}/export`, `POST /apps/{appId}/import`), for review in
 * git and for copying between stores. Everything is referenced by key or name, never by a store's id, and nothing
 * varies between two exports of the same setup: no timestamps, no SDK or management keys, no versions, a fixed
 * order (environments and stages by order, segments by name, flags by key; object keys in a fixed order).
 */
export const EXPORT_FORMAT_VERSION = 1;

export const ExportEnvironmentSchema = strictObject({ name: NameSchema, order: OrderSchema, isProduction: Type.Boolean() });
export const ExportStageSchema = strictObject({ name: NameSchema, color: ColorSchema, order: OrderSchema });
export const ExportSegmentSchema = strictObject({ name: NameSchema, type: SegmentTypeSchema, filter: FilterSchema });

/** A rule of PUT targeting's body with the segment named instead of `segmentId`. */
export const ExportRuleSchema = strictObject({ filter: FilterSchema, segment: Type.Optional(NameSchema) });

/**
 * A targeting to apply, as a schedule holds it: the body of `PUT …/targeting/{envId}` (so whatever that body gains
 * travels here too) with rules naming their segment; `config` and `prerequisites` omitted keep what is stored then.
 * Prerequisites name flags by key, sorted by key (they are AND-ed: their order means nothing).
 */
export const ExportTargetingBodySchema = strictObject({
  ...TargetingBodySchema.properties,
  rules: Type.Array(ExportRuleSchema, { maxItems: 500 }),
});
export type ExportTargetingBody = Static<typeof ExportTargetingBodySchema>;

/**
 * One flag's targeting in one environment: a targeting body with `config` always present, and `prerequisites`
 * always present in an export (a file that omits them keeps the stored ones on import, as a PUT does).
 */
export const ExportTargetingSchema = strictObject({
  ...ExportTargetingBodySchema.properties,
  config: strictObject({ variants: Type.Array(ConfigVariantSchema, { maxItems: 100 }) }),
});
export type ExportTargeting = Static<typeof ExportTargetingSchema>;
export type ExportPrerequisite = Static<typeof PrerequisiteSchema>;

/** A pending schedule (issue 39): only when and what, so that two exports of the same setup are the same bytes. */
export const ExportScheduleSchema = strictObject({ at: TimestampSchema, targeting: ExportTargetingBodySchema });
export type ExportSchedule = Static<typeof ExportScheduleSchema>;

export const ExportFlagSchema = strictObject({
  key: FlagKeySchema,
  name: NameSchema,
  description: nullable(DescriptionSchema),
  /** The stage's name, or null for none. */
  stage: nullable(NameSchema),
  permanent: Type.Boolean(),
  secret: Type.Boolean(),
  archived: Type.Boolean(),
  /** Environment name → targeting there. An environment left out keeps its stored targeting on import. */
  targeting: Type.Record(Type.String({ minLength: 1 }), ExportTargetingSchema),
  /**
   * Environment name → the flag's pending schedules there, by `at` (then by targeting). Always present in an export,
   * holding only the environments with pending schedules; omitted in a file: none to add.
   */
  schedules: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Array(ExportScheduleSchema, { maxItems: 100 }))),
});
export type ExportFlag = Static<typeof ExportFlagSchema>;

export const ExportDocumentSchema = strictObject(
  {
    formatVersion: Type.Literal(EXPORT_FORMAT_VERSION),
    app: strictObject({ name: NameSchema, flagKeyFormat: FlagKeyFormatSchema }),
    environments: Type.Array(ExportEnvironmentSchema, { minItems: 1, maxItems: 100 }),
    stages: Type.Array(ExportStageSchema, { maxItems: 100 }),
    segments: Type.Array(ExportSegmentSchema, { maxItems: 1000 }),
    flags: Type.Array(ExportFlagSchema, { maxItems: 10000 }),
  },
  { $id: 'ExportDocument' },
);
export type ExportDocument = Static<typeof ExportDocumentSchema>;

export const ImportQuerySchema = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'true: answer the diff and change nothing' })),
});

export const ImportResourceSchema = Type.Union(
  ['app', 'environment', 'stage', 'segment', 'flag', 'targeting', 'schedule'].map((r) => Type.Literal(r)),
);
export type ImportResource = 'app' | 'environment' | 'stage' | 'segment' | 'flag' | 'targeting' | 'schedule';
export type ImportAction = 'create' | 'update' | 'unchanged';

export const ImportChangeSchema = Type.Object(
  {
    resource: ImportResourceSchema,
    /** The key (flags, targeting, schedules) or name (everything else) of what changes. */
    name: Type.String(),
    /** For targeting and schedules: the environment's name. */
    environment: Type.Optional(Type.String()),
    /** For schedules: when it applies. */
    at: Type.Optional(TimestampSchema),
    action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('unchanged')]),
    /** The fields an update changes. */
    fields: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type ImportChange = Static<typeof ImportChangeSchema>;

export const ImportResponseSchema = Type.Object(
  {
    dryRun: Type.Boolean(),
    /** The app imported into; null in a dry run that would create it. */
    appId: nullable(IdSchema),
    changes: Type.Array(ImportChangeSchema),
    summary: Type.Object(
      { create: Type.Integer({ minimum: 0 }), update: Type.Integer({ minimum: 0 }), unchanged: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    flagStateVersions: FlagStateVersionsSchema,
  },
  { additionalProperties: false, $id: 'ImportResult' },
);
export type ImportResponse = Static<typeof ImportResponseSchema>;
