import type { RouteDefinition } from '../http/route.js';
import { createAppRoute } from './apps/create-app.js';
import { getAppRoute } from './apps/get-app.js';
import { listAppsRoute } from './apps/list-apps.js';
import { updateAppRoute } from './apps/update-app.js';
import { listAuditRoute, listOrganizationAuditRoute } from './audit/list-audit.js';
import { deleteEntityRoute } from './entities/delete-entity.js';
import { getEntityRoute } from './entities/get-entity.js';
import { listEntitiesRoute } from './entities/list-entities.js';
import { upsertEntityRoute } from './entities/upsert-entity.js';
import { COMPANY, USER } from './entity-flags/entity-kind.js';
import { getEntityFlagsRoute } from './entity-flags/get-entity-flags.js';
import { updateEntityFlagsRoute } from './entity-flags/update-entity-flags.js';
import { createEnvironmentRoute } from './environments/create-environment.js';
import { getEnvironmentRoute } from './environments/get-environment.js';
import { listEnvironmentsRoute } from './environments/list-environments.js';
import { rotateKeysRoute } from './environments/rotate-keys.js';
import { updateEnvironmentRoute } from './environments/update-environment.js';
import { exportAppRoute, importAppRoute, importRoute } from './export/export-routes.js';
import { createFlagRoute } from './flags/create-flag.js';
import { listFlagsRoute } from './flags/list-flags-route.js';
import { updateFlagRoute } from './flags/update-flag.js';
import { createKeyRoute, listKeysRoute, revokeKeyRoute } from './keys/key-routes.js';
import { getMeRoute } from './me/me-route.js';
import { getMemberRoute, listMembersRoute, putMemberRoute } from './members/member-routes.js';
import { createSegmentRoute } from './segments/create-segment.js';
import { deleteSegmentRoute } from './segments/delete-segment.js';
import { getSegmentRoute, listSegmentsRoute } from './segments/list-segments.js';
import { updateSegmentRoute } from './segments/update-segment.js';
import { createStageRoute } from './stages/create-stage.js';
import { deleteStageRoute } from './stages/delete-stage.js';
import { listStagesRoute } from './stages/list-stages.js';
import { updateStageRoute } from './stages/update-stage.js';
import { getTargetingRoute } from './targeting/get-targeting.js';
import { putTargetingRoute } from './targeting/put-targeting.js';
import { previewTargetingRoute } from './targeting/preview-targeting.js';
import { cancelScheduleRoute, createScheduleRoute, listSchedulesRoute } from './schedules/schedule-routes.js';

/** Rows 1–11 of management-api.md, in the spec's order. */
export const specManagementRoutes: RouteDefinition[] = [
  listAppsRoute,
  getAppRoute,
  listFlagsRoute,
  listEnvironmentsRoute,
  getEnvironmentRoute,
  createFlagRoute,
  updateFlagRoute,
  getEntityFlagsRoute(COMPANY),
  updateEntityFlagsRoute(COMPANY),
  getEntityFlagsRoute(USER),
  updateEntityFlagsRoute(USER),
];

/** The extension routes (architecture.md, "Management extension routes"): same auth, same error body. */
export const extensionManagementRoutes: RouteDefinition[] = [
  createAppRoute,
  updateAppRoute,
  createEnvironmentRoute,
  updateEnvironmentRoute,
  rotateKeysRoute,
  listStagesRoute,
  createStageRoute,
  updateStageRoute,
  deleteStageRoute,
  listSegmentsRoute,
  getSegmentRoute,
  createSegmentRoute,
  updateSegmentRoute,
  deleteSegmentRoute,
  listMembersRoute,
  getMemberRoute,
  putMemberRoute,
  getMeRoute,
  getTargetingRoute,
  putTargetingRoute,
  previewTargetingRoute,
  createScheduleRoute,
  listSchedulesRoute,
  cancelScheduleRoute,
  listEntitiesRoute(USER),
  getEntityRoute(USER),
  upsertEntityRoute(USER),
  deleteEntityRoute(USER),
  listEntitiesRoute(COMPANY),
  getEntityRoute(COMPANY),
  upsertEntityRoute(COMPANY),
  deleteEntityRoute(COMPANY),
  listAuditRoute,
  listOrganizationAuditRoute,
  listKeysRoute,
  createKeyRoute,
  revokeKeyRoute,
  exportAppRoute,
  importAppRoute,
  importRoute,
];

export const managementRoutes: RouteDefinition[] = [...specManagementRoutes, ...extensionManagementRoutes];
