import { Value } from '@sinclair/typebox/value';
import { mutate, type MutationTx } from '../../domain/mutation.js';
import { HttpError } from '../../http/http-error.js';
import { TargetingBodySchema, type TargetingBody } from '../../schemas/targeting.js';
import type { Services } from '../../services.js';
import type { ScheduleRecord } from '../../storage/records.js';
import { applyTargeting, checkTargetingBody } from '../targeting/apply-targeting.js';
import { reasonOf } from './schedule-view.js';

/** How often an instance looks for due schedules: a due change goes out within a second. */
export const SCHEDULE_POLL_MS = 500;
/** Due schedules applied per look; more wait for the next one. */
const BATCH = 50;

/** A schedule that can no longer be applied as written: it is settled `failed` with this reason. */
class ScheduleFailure extends Error {}

/** Another instance settled it first: the transaction is rolled back and nothing is written here. */
class AlreadySettled extends Error {}

/**
 * Applies due schedules, in every instance sharing a store. Each is applied in one transaction that also moves it
 * from `pending` to `applied` by a conditional update, so of several replicas exactly one applies it; the others'
 * transactions roll back. The timer never keeps the host's process alive, and `close()` stops it and waits for a
 * look under way.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  private closed = false;

  constructor(private readonly services: Services) {}

  /** Applies what is overdue now (an instance that was down catches up at start), then looks periodically. */
  async start(): Promise<void> {
    await this.tick();
    if (this.closed) return;
    this.timer = setInterval(() => void this.tick(), SCHEDULE_POLL_MS);
    this.timer.unref();
  }

  /** One look for due schedules; looks never overlap. */
  tick(): Promise<void> {
    this.running ??= this.applyDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async applyDue(): Promise<void> {
    try {
      const due = await this.services.storage.schedules.listDue(this.services.now().toISOString(), BATCH);
      for (const schedule of due) {
        if (this.closed) return;
        await this.apply(schedule);
      }
      this.failing = false;
    } catch (error) {
      // A store that is down is retried on the next look; say so once per outage, not twice a second.
      if (!this.failing) this.services.logger.error('flagmount: applying scheduled changes failed; retrying', { error });
      this.failing = true;
    }
  }

  private async apply(schedule: ScheduleRecord): Promise<void> {
    const actor = { orgId: schedule.orgId, actor: schedule.createdBy };
    try {
      await mutate(this.services, actor, (tx) => this.applyIn(tx, schedule));
    } catch (error) {
      if (error instanceof AlreadySettled) return;
      if (!(error instanceof ScheduleFailure || (error instanceof HttpError && error.status < 500))) throw error;
      const reason = error instanceof HttpError ? reasonOf(error) : error.message;
      await mutate(this.services, actor, async (tx) => {
        const at = this.services.now().toISOString();
        if (!(await tx.schedules.settle(schedule.id, 'failed', { appliedAt: null, flagStateVersion: null, reason }))) return;
        tx.recordAudit({ appId: schedule.appId, envId: schedule.envId, action: 'flag.schedule.failed', targetType: 'schedule', targetId: schedule.id, changeDescription: `Scheduled change ${schedule.id} by ${schedule.createdBy} failed at ${at}: ${reason}`, before: schedule, after: { ...schedule, status: 'failed', reason } });
      });
    }
  }

  private async applyIn(tx: MutationTx, schedule: ScheduleRecord): Promise<void> {
    if ((await tx.schedules.get(schedule.id))?.status !== 'pending') throw new AlreadySettled();
    const [app, flag, env] = await Promise.all([tx.apps.get(schedule.appId), tx.flags.get(schedule.flagId), tx.environments.get(schedule.envId)]);
    if (!app || !flag || !env) throw new ScheduleFailure('The flag or environment no longer exists');
    if (flag.archived) throw new ScheduleFailure(`Flag ${flag.key} was archived`);
    if (!Value.Check(TargetingBodySchema, schedule.targeting)) throw new ScheduleFailure('The stored targeting is not a valid targeting body');
    const body = schedule.targeting as TargetingBody;
    checkTargetingBody(body, flag.key);
    const at = this.services.now().toISOString();
    const { changed } = await applyTargeting(tx, {
      app,
      flag,
      env,
      body,
      at,
      audit: { action: 'flag.schedule.applied', actor: schedule.createdBy, changeDescription: `Scheduled change ${schedule.id} by ${schedule.createdBy}` },
    });
    // Transactions are serialisable and this one bumps the environment exactly once when it changed something, so
    // the version it commits is the one read here plus one.
    const version = (await tx.environments.get(env.id))!.flagStateVersion + (changed ? 1 : 0);
    if (!(await tx.schedules.settle(schedule.id, 'applied', { appliedAt: at, flagStateVersion: version, reason: null }))) throw new AlreadySettled();
  }
}
