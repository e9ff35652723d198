import type { FlagRecord } from '../storage/records.js';

/** What a flag must be given; everything else starts as a new flag's does. */
export type NewFlagFields = Pick<FlagRecord, 'id' | 'appId' | 'key' | 'name' | 'createdAt'> & Partial<FlagRecord>;

/** The stored record of a flag just created: not archived, not permanent, no stage, owner or clean-up marks. */
export function newFlagRecord(fields: NewFlagFields): FlagRecord {
  return {
    description: null,
    stageId: null,
    ownerUserId: null,
    parentFlagId: null,
    archived: false,
    permanent: false,
    secret: false,
    updatedAt: fields.createdAt,
    rolledOutToEveryoneAt: null,
    codeRefsCleanedUp: false,
    codeRefsMarkedCleanUserName: null,
    codeRefsMarkedCleanAt: null,
    ...fields,
  };
}
