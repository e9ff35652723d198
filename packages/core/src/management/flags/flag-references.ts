import { addIssue, type Issues } from '../../http/http-error.js';
import type { Repositories } from '../../storage/port.js';
import type { AppRecord } from '../../storage/records.js';

/**
 * Checks of the ids a flag body refers to. They are "valid but conflicting" input, so 400 `not_possible`
 * (architecture.md), collected rather than thrown one by one so a caller sees every problem at once.
 */

export async function checkStageRef(tx: Repositories, app: AppRecord, stageId: string, issues: Issues): Promise<void> {
  const stage = await tx.stages.get(stageId);
  if (!stage || stage.appId !== app.id) addIssue(issues, 'stageId', `Stage ${stageId} is not a stage of this app`);
}

/** Owners are members of the app's organisation (`PUT /members/{memberId}` registers them). */
export async function checkOwnerRef(tx: Repositories, app: AppRecord, ownerUserId: string, issues: Issues): Promise<void> {
  const member = await tx.members.get(ownerUserId);
  if (!member || member.orgId !== app.orgId) {
    addIssue(issues, 'ownerUserId', `Member ${ownerUserId} is not a member of this organization (register it with PUT /members/{memberId})`);
  }
}
