import type { Services } from '../services.js';
import { repositoriesOf, type Transaction } from '../storage/port.js';
import type { AuditRecord } from '../storage/records.js';
import { newOrderedId } from './ids.js';

export type AuditInput = Omit<AuditRecord, 'id' | 'createdAt' | 'orgId' | 'actor'> & { orgId?: string; actor?: string };

export interface MutationTx extends Transaction {
  /**
   * Marks environments whose flag state this mutation changes. Each is bumped exactly once, at the end of the
   * transaction, however often it is marked.
   */
  changesFlagState(...envIds: string[]): void;
  /** Records an audit entry in the same transaction. */
  recordAudit(entry: AuditInput): void;
}

export interface MutationActor {
  orgId: string;
  /**
   * Who did it, as audit entries name it: a management key id, `member:<memberId>` for a person (signed in by the
   * host, or named by a tool that acts for one), `sdk:<envId>`, or `system`. Audit listings add `actorName` from
   * it: the member's or the key's name.
   */
  actor: string;
}

export interface MutationResult<T> {
  result: T;
  /** New flagStateVersion of every environment this mutation bumped. */
  versions: Record<string, number>;
}

/**
 * Runs a state change in one transaction: the writes, the audit entries and the flagStateVersion bumps commit
 * together or not at all; change notices go out only after the commit.
 */
export async function mutate<T>(
  services: Services,
  actor: MutationActor,
  fn: (tx: MutationTx) => Promise<T>,
): Promise<MutationResult<T>> {
  const outcome = await services.storage.transaction(async (tx) => {
    const marked = new Set<string>();
    const audits: AuditInput[] = [];
    const mtx: MutationTx = {
      ...repositoriesOf(tx),
      publishChange: (envId: string, version: number) => tx.publishChange(envId, version),
      changesFlagState: (...envIds: string[]) => envIds.forEach((id) => marked.add(id)),
      recordAudit: (entry: AuditInput) => void audits.push(entry),
    };
    const result = await fn(mtx);
    const versions: Record<string, number> = {};
    for (const envId of marked) {
      versions[envId] = await tx.environments.bumpVersion(envId);
      tx.publishChange(envId, versions[envId]!);
    }
    const createdAt = services.now().toISOString();
    for (const entry of audits) {
      await tx.audit.insert({ ...entry, orgId: entry.orgId ?? actor.orgId, actor: entry.actor ?? actor.actor, id: newOrderedId('au'), createdAt });
    }
    return { result, versions };
  });
  // Read-your-writes in this process without waiting for the notice round trip.
  await Promise.all(Object.keys(outcome.versions).map((envId) => services.snapshots.reload(envId)));
  return outcome;
}
