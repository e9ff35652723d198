import type { TargetingBody } from '../schemas/targeting.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, ScheduleRecord } from '../storage/records.js';
import { newId } from './ids.js';

/** A schedule just made (by `POST …/schedules` or an import): pending, applied later under `createdBy`. */
export function newScheduleRecord(
  app: AppRecord,
  env: EnvironmentRecord,
  flag: FlagRecord,
  fields: { at: string; targeting: TargetingBody; createdBy: string; createdAt: string },
): ScheduleRecord {
  return {
    id: newId('sc'),
    orgId: app.orgId,
    appId: app.id,
    envId: env.id,
    flagId: flag.id,
    flagKey: flag.key,
    at: fields.at,
    status: 'pending',
    targeting: fields.targeting as Record<string, unknown>,
    createdBy: fields.createdBy,
    createdAt: fields.createdAt,
    appliedAt: null,
    flagStateVersion: null,
    reason: null,
  };
}
