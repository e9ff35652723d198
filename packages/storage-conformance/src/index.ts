export { checkGroups, describeStorageConformance, runCheck } from './describe.js';
export type { CheckFunction, CheckGroup, ConformanceCheck, StorageFactory } from './types.js';
export * from './fixtures.js';
export { worldWrites, type WorldWrite } from './writes.js';
export { compare as compareIds, expectConflict, expectNotFound, rejection, waitFor } from './util.js';
export { checkApps, checkMembers, checkOrganizations } from './suites/organizations.js';
export { checkBumpVersion, checkEnvironments, checkSdkKeys } from './suites/environments.js';
export { checkFlags, checkSegments, checkSpecificTargets, checkStages, checkTargeting } from './suites/catalog.js';
export { checkEntities, checkEntityDeleteCascade, checkEntitySearch, checkMemberships } from './suites/entities.js';
export { checkCheckRing, checkEventIdsUnique, checkEventLogs, checkFeedback } from './suites/events.js';
export { checkEntityFlagStatsMerge, checkFlagDailyExposures, checkFlagDailyStatsMerge, checkFlagTotals } from './suites/stats.js';
export { checkAuditFilters, checkAuditList, checkManagementKeys } from './suites/audit-keys.js';
export {
  checkBumpVersionConcurrent,
  checkIsolation,
  checkNestedTransactionRejects,
  checkRollbackOfEveryWrite,
  checkRollbackOnConflict,
  checkSerialisedReadModifyWrite,
  checkTransactionCommits,
} from './suites/transactions.js';
export {
  checkNoticeAfterCommit,
  checkNoticeDroppedOnRollback,
  checkNoticeOrder,
  checkPublishOutsideTransaction,
  checkThrowingListener,
  checkUnsubscribe,
} from './suites/notices.js';
export {
  checkCloseIsIdempotent,
  checkCloseReleasesResources,
  checkDump,
  checkMigrateIsIdempotent,
  checkRejectsAfterClose,
  checkReopenKeepsWrites,
  checkRowsAreCopies,
} from './suites/lifecycle.js';
export { checkBumpVersionAcrossHandles, checkSecondHandleNotices, checkSecondHandleSharesData } from './suites/shared.js';
export { checkEntityPages, checkSchedules, checkScheduleSettleAcrossHandles, checkTargetingPrerequisites, schedule } from './suites/safe-releases.js';
