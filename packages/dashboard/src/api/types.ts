/**
 * The API's types, derived from the core's TypeBox schemas. Type-only imports: nothing of the core reaches the
 * bundle, and a schema change breaks the dashboard's type check instead of its users.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ConfigVariant,
  ConstantFilter,
  ContextFilter,
  ContextOperator,
  Filter,
  GroupFilter,
  NegationFilter,
  RolloutPercentageFilter,
} from '../../../engine/src/schema/filter.js';
import type { AppHeader, ListAppsResponseSchema } from '../../../core/src/schemas/app.js';
import type { AuditEntry, ListAuditQuery, ListAuditResponseSchema } from '../../../core/src/schemas/audit.js';
import type { FlagChecksResponseSchema } from '../../../core/src/dashboard/checks-route.js';
import type { FlagFeedbackResponseSchema } from '../../../core/src/dashboard/feedback-route.js';
import type { FlagDetailsResponseSchema } from '../../../core/src/dashboard/flag-details-route.js';
import type { FlagStatusesResponseSchema } from '../../../core/src/dashboard/flag-statuses-route.js';
import type { SpecificTargetsResponseSchema } from '../../../core/src/dashboard/specific-targets-route.js';
import type {
  Entity,
  EntityFlag,
  EntityFlagsResponse,
  ListEntitiesResponse,
  UpdateEntityFlagsBody,
  UpsertEntityBody,
} from '../../../core/src/schemas/entity-flag.js';
import type {
  CreateEnvironmentBody,
  Environment,
  EnvironmentHeader,
  ListEnvironmentsResponseSchema,
  UpdateEnvironmentBody,
} from '../../../core/src/schemas/environment.js';
import type { ErrorBody } from '../../../core/src/schemas/error.js';
import type {
  CreateFlagBody,
  Flag,
  FlagHeader,
  FlagMutationResponse,
  FlagSortBy,
  ListFlagsQuery,
  ListFlagsResponseSchema,
  UpdateFlagBody,
} from '../../../core/src/schemas/flag.js';
import type {
  CreateManagementKeyBody,
  CreateManagementKeyResponseSchema,
  ListManagementKeysResponseSchema,
  ManagementKey,
  ManagementScopeSchema,
} from '../../../core/src/schemas/management-key.js';
import type { ListMembersResponseSchema, PutMemberBody, UserHeader } from '../../../core/src/schemas/member.js';
import type {
  CreateSegmentBody,
  ListSegmentsResponseSchema,
  Segment,
  UpdateSegmentBody,
} from '../../../core/src/schemas/segment.js';
import type {
  CreateStageBody,
  ListStagesResponseSchema,
  StageHeader,
  UpdateStageBody,
} from '../../../core/src/schemas/stage.js';
import type { PutTargetingBody, Prerequisite, Targeting, TargetingBody, TargetingMutationResponseSchema } from '../../../core/src/schemas/targeting.js';
import type { TargetingPreview, PreviewCounts } from '../../../core/src/schemas/preview.js';
import type {
  CreateScheduleBody,
  ListSchedulesResponseSchema,
  Schedule,
  ScheduleResponseSchema,
} from '../../../core/src/schemas/schedule.js';

export type {
  AppHeader,
  AuditEntry,
  ListAuditQuery,
  ConfigVariant,
  ConstantFilter,
  ContextFilter,
  ContextOperator,
  CreateEnvironmentBody,
  CreateFlagBody,
  CreateManagementKeyBody,
  CreateSegmentBody,
  CreateStageBody,
  Entity,
  EntityFlag,
  EntityFlagsResponse,
  Environment,
  ListEntitiesResponse,
  EnvironmentHeader,
  ErrorBody,
  Filter,
  Flag,
  FlagHeader,
  FlagMutationResponse,
  FlagSortBy,
  GroupFilter,
  ListFlagsQuery,
  ManagementKey,
  NegationFilter,
  PutMemberBody,
  Prerequisite,
  PreviewCounts,
  PutTargetingBody,
  CreateScheduleBody,
  RolloutPercentageFilter,
  Schedule,
  Segment,
  StageHeader,
  Targeting,
  TargetingBody,
  TargetingPreview,
  UpdateEntityFlagsBody,
  UpdateEnvironmentBody,
  UpdateFlagBody,
  UpdateSegmentBody,
  UpdateStageBody,
  UpsertEntityBody,
  UserHeader,
};

export type ManagementScope = Static<typeof ManagementScopeSchema>;
export type ListApps = Static<typeof ListAppsResponseSchema>;
export type ListAudit = Static<typeof ListAuditResponseSchema>;
export type ListEnvironments = Static<typeof ListEnvironmentsResponseSchema>;
export type ListFlags = Static<typeof ListFlagsResponseSchema>;
export type ListKeys = Static<typeof ListManagementKeysResponseSchema>;
export type CreatedKey = Static<typeof CreateManagementKeyResponseSchema>;
export type ListMembers = Static<typeof ListMembersResponseSchema>;
export type ListSegments = Static<typeof ListSegmentsResponseSchema>;
export type ListStages = Static<typeof ListStagesResponseSchema>;
export type FlagChecks = Static<typeof FlagChecksResponseSchema>;
export type FlagDetails = Static<typeof FlagDetailsResponseSchema>;
export type FlagFeedback = Static<typeof FlagFeedbackResponseSchema>;
export type FlagStatuses = Static<typeof FlagStatusesResponseSchema>;
export type FlagStatus = FlagStatuses['data'][number]['flags'][string];
export type SpecificTargets = Static<typeof SpecificTargetsResponseSchema>;
export type ListSchedules = Static<typeof ListSchedulesResponseSchema>;
export type ScheduleResponse = Static<typeof ScheduleResponseSchema>;
export type TargetingMutation = Static<typeof TargetingMutationResponseSchema>;
/** A targeting rule as stored: a filter, optionally narrowed to a segment. */
export type StoredRule = Targeting['rules'][number];
/** The targeting PUT with optimistic concurrency: `ifVersion` is the `version` the editor loaded. */
export type PutTargetingRequest = PutTargetingBody & { ifVersion?: number };

export type Role = 'admin' | 'editor' | 'viewer';

/** `GET <prefix>/me`: who the dashboard acts as (the host's signed-in person, or a management key). */
export type Actor =
  | { type: 'person'; id: string; name: string; email?: string; role: Role; environments?: Record<string, Role> }
  | { type: 'key'; id: string; name: string; scopes: ManagementScope[] | null };
