import { ConfigVariantSchema, FilterSchema } from '@flagmount/engine';
import { Type, type Static } from '@sinclair/typebox';
import { FlagKeyFormatSchema } from './app.js';
import { DescriptionSchema, FlagStateVersionsSchema, IdSchema, NameSchema, nullable, OrderSchema, strictObject } from './common.js';
import { FlagKeySchema } from './flag.js';
import { SegmentTypeSchema } from './segment.js';
import { ColorSchema } from './stage.js';
import { PutTargetingBodySchema } from './targeting.js';

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
 * One flag's targeting in one environment: the body of `PUT …/targeting/{envId}` (so whatever that body gains —
 * prerequisites among them — travels here too), rules naming their segment, and `config` always present.
 */
export const ExportTargetingSchema = strictObject({
  ...PutTargetingBodySchema.properties,
  rules: Type.Array(ExportRuleSchema, { maxItems: 500 }),
  config: strictObject({ variants: Type.Array(ConfigVariantSchema, { maxItems: 100 }) }),
});
export type ExportTargeting = Static<typeof ExportTargetingSchema>;

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
  // Schedules (issue 39) go here, per flag and keyed by environment name like `targeting`.
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
  ['app', 'environment', 'stage', 'segment', 'flag', 'targeting'].map((r) => Type.Literal(r)),
);
export type ImportResource = 'app' | 'environment' | 'stage' | 'segment' | 'flag' | 'targeting';
export type ImportAction = 'create' | 'update' | 'unchanged';

export const ImportChangeSchema = Type.Object(
  {
    resource: ImportResourceSchema,
    /** The key (flags, targeting) or name (everything else) of what changes. */
    name: Type.String(),
    /** For targeting: the environment's name. */
    environment: Type.Optional(Type.String()),
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
