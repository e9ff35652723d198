import type { MutationTx } from '../../domain/mutation.js';
import { newScheduleRecord } from '../../domain/new-schedule-record.js';
import { addIssue, invalidRequest, type Issues } from '../../http/http-error.js';
import type { ExportDocument, ImportChange } from '../../schemas/export.js';
import type { TargetingBody } from '../../schemas/targeting.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord, EnvironmentRecord, FlagRecord, ScheduleRecord, SegmentRecord } from '../../storage/records.js';
import { canonicalJson } from '../canonical-json.js';
import { MAX_PENDING_SCHEDULES } from '../schedules/schedule-routes.js';
import { exportScheduleTargeting, importedBody } from './targeting-form.js';

export interface ScheduleImport {
  repos: Repositories;
  tx: MutationTx | undefined;
  app: AppRecord;
  doc: ExportDocument;
  at: string;
  /** Who imports: the created schedules are applied, and audited, under this actor. */
  actor: string;
  /** Flag key → flag, created ones included; `existingFlags`: those the store held before. */
  flagByKey: ReadonlyMap<string, FlagRecord>;
  existingFlags: ReadonlyMap<string, FlagRecord>;
  /** Lower-cased environment name → environment; `createdEnvIds`: those this import creates. */
  envByName: ReadonlyMap<string, EnvironmentRecord>;
  createdEnvIds: readonly string[];
  segmentByName: ReadonlyMap<string, SegmentRecord>;
  changes: ImportChange[];
}

/**
 * Adds the document's pending schedules that the store does not hold yet, matched on flag, environment, `at` and
 * targeting (compared in export form, as many times as the file lists one; settled schedules match too): importing
 * the same file twice creates nothing the second time, even when a schedule went out in between. Checked as `POST …/schedules` checks (the rest in `checkDocument` and
 * `checkPlannedPrerequisites`), except that an `at` already past is accepted: the scheduler applies it on its next
 * look. Creating a schedule changes no flag state, so it bumps no version.
 */
export async function importSchedules(input: ScheduleImport): Promise<void> {
  const { repos, tx, app, doc, at } = input;
  const segmentById = new Map([...input.segmentByName.values()].map((s) => [s.id, s]));
  const segmentId = (name: string) => input.segmentByName.get(name)!.id;
  const issues: Issues = {};
  const rows: ScheduleRecord[] = [];
  for (const [i, f] of doc.flags.entries()) {
    const flag = input.flagByKey.get(f.key)!;
    for (const [envName, schedules] of Object.entries(f.schedules ?? {})) {
      const env = input.envByName.get(envName.toLowerCase())!;
      const stored = input.existingFlags.has(f.key) && !input.createdEnvIds.includes(env.id) ? await repos.schedules.listByFlag(flag.id, env.id) : [];
      const pendingCount = stored.filter((s) => s.status === 'pending').length;
      // Settled ones match too: a file re-imported after its schedule went out (or was cancelled) does not bring it back.
      const held = new Map<string, number>();
      for (const s of stored) {
        const form = exportScheduleTargeting(flag.key, s.targeting as TargetingBody, segmentById);
        const key = canonicalJson({ at: s.at, targeting: form });
        held.set(key, (held.get(key) ?? 0) + 1);
      }
      let added = 0;
      for (const s of schedules) {
        const targeting = importedBody(flag.key, s.targeting, segmentId);
        const when = new Date(s.at).toISOString();
        const key = canonicalJson({ at: when, targeting: exportScheduleTargeting(flag.key, targeting, segmentById) });
        const matches = held.get(key) ?? 0;
        if (matches) held.set(key, matches - 1);
        input.changes.push({ resource: 'schedule', name: flag.key, environment: env.name, at: when, action: matches ? 'unchanged' : 'create', fields: [] });
        if (matches) continue;
        added++;
        rows.push(newScheduleRecord(app, env, flag, { at: when, targeting, createdBy: input.actor, createdAt: at }));
      }
      if (pendingCount + added > MAX_PENDING_SCHEDULES) {
        addIssue(issues, `flags.${i}.schedules.${envName}`, `a flag holds at most ${MAX_PENDING_SCHEDULES} pending schedules per environment (${pendingCount} already pending)`);
      }
    }
  }
  if (Object.keys(issues).length) throw invalidRequest('Invalid import document', issues);
  if (!tx) return;
  for (const row of rows) {
    await tx.schedules.insert(row);
    tx.recordAudit({ appId: app.id, envId: row.envId, action: 'flag.schedule.created', targetType: 'schedule', targetId: row.id, changeDescription: `Scheduled for ${row.at} by import`, before: null, after: row });
  }
}
