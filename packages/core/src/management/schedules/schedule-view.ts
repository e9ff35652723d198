import { HttpError, notFound } from '../../http/http-error.js';
import type { Schedule } from '../../schemas/schedule.js';
import type { TargetingBody } from '../../schemas/targeting.js';
import type { Repositories } from '../../storage/port.js';
import type { FlagRecord, ScheduleRecord } from '../../storage/records.js';

export function toSchedule(row: ScheduleRecord): Schedule {
  return {
    id: row.id,
    envId: row.envId,
    flagKey: row.flagKey,
    at: row.at,
    status: row.status,
    targeting: row.targeting as TargetingBody,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    appliedAt: row.appliedAt,
    flagStateVersion: row.flagStateVersion,
    reason: row.reason,
  };
}

/** Pending first, soonest first; then what is settled, latest `at` first (a flag page's order). */
export function pendingFirst(rows: ScheduleRecord[]): ScheduleRecord[] {
  const pending = rows.filter((r) => r.status === 'pending');
  const settled = rows.filter((r) => r.status !== 'pending').reverse();
  return pending.concat(settled);
}

export async function loadSchedule(repos: Repositories, flag: FlagRecord, scheduleId: string): Promise<ScheduleRecord> {
  const schedule = await repos.schedules.get(scheduleId);
  if (!schedule || schedule.flagId !== flag.id) throw notFound(`Schedule ${scheduleId}`);
  return schedule;
}

/** A refusal's message with its field messages, as a schedule's `reason` keeps it. */
export function reasonOf(error: HttpError): string {
  const details = Object.entries(error.issues ?? {}).map(([path, messages]) => `${path ? `${path}: ` : ''}${messages.join('; ')}`);
  return details.length ? `${error.message} (${details.join('; ')})` : error.message;
}

/** An error about the targeting, with its field paths placed under `targeting.` as the schedule's body has them. */
export function underTargeting(error: unknown): unknown {
  if (!(error instanceof HttpError) || !error.issues) return error;
  const issues = Object.fromEntries(Object.entries(error.issues).map(([path, messages]) => [path ? `targeting.${path}` : 'targeting', messages]));
  return new HttpError(error.status, error.code, error.message, issues);
}
