import { mutate } from '../../domain/mutation.js';
import { newScheduleRecord } from '../../domain/new-schedule-record.js';
import { invalidRequest, notPossible } from '../../http/http-error.js';
import { defineRoute } from '../../http/route.js';
import {
  CreateScheduleBodySchema,
  ListSchedulesQuerySchema,
  ListSchedulesResponseSchema,
  ScheduleFlagParamsSchema,
  ScheduleParamsSchema,
  ScheduleResponseSchema,
} from '../../schemas/schedule.js';
import type { ScheduleRecord } from '../../storage/records.js';
import { actorOf, loadApp, loadEnvironment, loadFlagByKey } from '../access.js';
import { checkTargetingBody, checkTargetingReferences } from '../targeting/apply-targeting.js';
import { loadSchedule, pendingFirst, toSchedule, underTargeting } from './schedule-view.js';

/** Pending schedules a flag may hold in one environment: a bound, like every table's. */
export const MAX_PENDING_SCHEDULES = 100;

/**
 * Extension: schedule a targeting change. The targeting is checked now as a PUT would check it (and again when
 * applied: what it refers to may change meanwhile); a time not in the future is refused. Nothing changes in flag
 * state until it is applied.
 */
export const createScheduleRoute = defineRoute({
  method: 'POST',
  path: '/apps/{appId}/flags/{flagKey}/schedules',
  operationId: 'createSchedule',
  summary: 'Schedule a targeting change',
  surface: 'management',
  tags: ['Schedules'],
  auth: { kind: 'management', scope: 'write:flag:targeting' },
  params: ScheduleFlagParamsSchema,
  body: CreateScheduleBodySchema,
  response: ScheduleResponseSchema,
  async handle({ params, body, principal, services }) {
    const now = services.now();
    const at = new Date(body.at);
    if (!(at.getTime() > now.getTime())) throw invalidRequest('The time is not in the future', { at: [`must be after ${now.toISOString()}`] });
    checkTargetingBody(body.targeting, params.flagKey, 'targeting.');
    const app = await loadApp(services.storage, principal, params.appId);
    const actor = actorOf(principal);
    const { result } = await mutate(services, actor, async (tx) => {
      const [flag, env] = await Promise.all([loadFlagByKey(tx, app, params.flagKey), loadEnvironment(tx, app, body.envId)]);
      if (flag.archived) throw notPossible(`Flag ${flag.key} is archived`, { flagKey: ['is archived'] });
      await checkTargetingReferences(tx, { app, flag, env, body: body.targeting }).catch((error: unknown) => {
        throw underTargeting(error);
      });
      const pending = (await tx.schedules.listByFlag(flag.id, env.id)).filter((s) => s.status === 'pending');
      if (pending.length >= MAX_PENDING_SCHEDULES) {
        throw notPossible('Too many pending schedules', { at: [`a flag holds at most ${MAX_PENDING_SCHEDULES} pending schedules per environment`] });
      }
      const row = newScheduleRecord(app, env, flag, { at: at.toISOString(), targeting: body.targeting, createdBy: actor.actor, createdAt: now.toISOString() });
      await tx.schedules.insert(row);
      tx.recordAudit({ appId: app.id, envId: env.id, action: 'flag.schedule.created', targetType: 'schedule', targetId: row.id, changeDescription: `Scheduled for ${row.at}`, before: null, after: row });
      return row;
    });
    return { schedule: toSchedule(result) };
  },
});

export const listSchedulesRoute = defineRoute({
  method: 'GET',
  path: '/apps/{appId}/flags/{flagKey}/schedules',
  operationId: 'listSchedules',
  summary: "List a flag's scheduled changes",
  surface: 'management',
  tags: ['Schedules'],
  auth: { kind: 'management', scope: 'read' },
  params: ScheduleFlagParamsSchema,
  query: ListSchedulesQuerySchema,
  response: ListSchedulesResponseSchema,
  async handle({ params, query, principal, services }) {
    const repos = services.storage;
    const app = await loadApp(repos, principal, params.appId);
    const flag = await loadFlagByKey(repos, app, params.flagKey);
    if (query.envId !== undefined) await loadEnvironment(repos, app, query.envId);
    return { data: pendingFirst(await repos.schedules.listByFlag(flag.id, query.envId)).map(toSchedule) };
  },
});

/** Extension: cancel a pending schedule (one already applied, failed or cancelled is 400 not_possible). */
export const cancelScheduleRoute = defineRoute({
  method: 'DELETE',
  path: '/apps/{appId}/flags/{flagKey}/schedules/{scheduleId}',
  operationId: 'cancelSchedule',
  summary: 'Cancel a scheduled change',
  surface: 'management',
  tags: ['Schedules'],
  auth: { kind: 'management', scope: 'write:flag:targeting' },
  params: ScheduleParamsSchema,
  response: ScheduleResponseSchema,
  async handle({ params, principal, services }) {
    const app = await loadApp(services.storage, principal, params.appId);
    const actor = actorOf(principal);
    const { result } = await mutate(services, actor, async (tx) => {
      const flag = await loadFlagByKey(tx, app, params.flagKey);
      const schedule = await loadSchedule(tx, flag, params.scheduleId);
      const reason = `Cancelled by ${actor.actor}`;
      if (!(await tx.schedules.settle(schedule.id, 'cancelled', { appliedAt: null, flagStateVersion: null, reason }))) {
        throw notPossible(`Schedule ${schedule.id} is ${schedule.status}, not pending`, { scheduleId: [`is ${schedule.status}`] });
      }
      const after: ScheduleRecord = { ...schedule, status: 'cancelled', reason };
      tx.recordAudit({ appId: app.id, envId: schedule.envId, action: 'flag.schedule.cancelled', targetType: 'schedule', targetId: schedule.id, changeDescription: null, before: schedule, after });
      return after;
    });
    return { schedule: toSchedule(result) };
  },
});
