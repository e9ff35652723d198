export { createFlagmount, type Flagmount, type FlagmountStats } from './create-flagmount.js';
export type { ClientAnalyticsStats } from './client/event-buffer.js';
export * from './options.js';
export { silentLogger, normalizeLogger, type LogFunction, type Logger } from './logger.js';
export { BOOTSTRAP_ORG_ID } from './bootstrap.js';

export * from './storage/records.js';
export * from './storage/port.js';
export * from './storage/errors.js';
export * from './storage/transaction-scope.js';
export { newFlagRecord, type NewFlagFields } from './domain/new-flag-record.js';

export type { CoreRequest, CoreResponse, RequestBody, StreamBody, StreamSink } from './http/types.js';
export { bodyText, errorResponse, jsonResponse, type CoreHandler } from './http/handler.js';
export type { RouteDefinition, AuthRequirement, Principal } from './http/route.js';
export { HttpError, type ErrorCode, type Issues } from './http/http-error.js';
export { ErrorBodySchema, type ErrorBody } from './schemas/error.js';
export * from './adapter/index.js';
export * from './host/index.js';

export type { FeatureDefinition } from './snapshot/build-snapshot.js';
export type { IngestBatch, EntityUpsert } from './ingestion/ingest-batch.js';
export { FlagmountClient } from './client/flagmount-client.js';
export { BoundFlagmountClient } from './client/bound-client.js';
export { RequestFlags } from './client/request-flags.js';
export type { BootstrappedFlag, BootstrappedFlags } from './client/bootstrap.js';
export type { Flag, FlagConfig, FlagContext, FlagOverride, EntityId, TrackOptions, FlagKey, FlagPayload, Flags, TypedFlag, TypedFlags } from './client/types.js';
export { toFlagmountContext, InvalidContextError } from './ofrep/context.js';
export { ofrepRoutes } from './ofrep/routes.js';
export { manifestType, type ManifestFlagType } from './openfeature/manifest.js';
export { buildOpenApiDocument, documented, type OperationDoc, type ResponseDoc } from './openapi/index.js';
export type { Schedule } from './schemas/schedule.js';
export type { PreviewCounts, TargetingPreview } from './schemas/preview.js';
export type { Prerequisite, TargetingBody } from './schemas/targeting.js';
export {
  ExportDocumentSchema,
  ImportResponseSchema,
  EXPORT_FORMAT_VERSION,
  type ExportDocument,
  type ExportFlag,
  type ExportTargeting,
  type ExportTargetingBody,
  type ExportSchedule,
  type ImportResponse,
  type ImportChange,
} from './schemas/export.js';
export { filterMatchesEveryone } from './management/targeting/everyone.js';
