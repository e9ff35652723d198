import type { StorageDump } from '@flagmount/core';
import type { Kysely } from 'kysely';
import { codecs } from './codecs.js';
import type { TableCodec } from './codec.js';
import type { Database, TableName } from './schema.js';

type AnyCodec = TableCodec<TableName, unknown>;

/**
 * The dump's sections: named like the repositories (and the memory store's collections), each ordered by its
 * table's primary key — events by insertion order — so that two stores holding the same rows dump the same.
 */
const sections: readonly (readonly [name: string, codec: AnyCodec, orderBy: readonly string[]])[] = [
  ['organizations', codecs.organizations, ['id']],
  ['apps', codecs.apps, ['id']],
  ['environments', codecs.environments, ['id']],
  ['stages', codecs.stages, ['id']],
  ['segments', codecs.segments, ['id']],
  ['members', codecs.members, ['id']],
  ['flags', codecs.flags, ['id']],
  ['targeting', codecs.targeting, ['flag_id', 'env_id']],
  ['specificTargets', codecs.specificTargets, ['flag_id', 'env_id', 'entity_type', 'entity_id']],
  ['entities', codecs.entities, ['env_id', 'type', 'id']],
  ['memberships', codecs.memberships, ['env_id', 'company_id', 'user_id']],
  ['trackEvents', codecs.trackEvents, ['seq']],
  ['checkEvents', codecs.checkEvents, ['env_id', 'seq']],
  ['promptEvents', codecs.promptEvents, ['seq']],
  ['feedback', codecs.feedback, ['env_id', 'id']],
  ['entityFlagStats', codecs.entityFlagStats, ['env_id', 'entity_type', 'entity_id', 'flag_key']],
  ['flagDailyStats', codecs.flagDailyStats, ['env_id', 'flag_key', 'day']],
  ['audit', codecs.audit, ['id']],
  ['managementKeys', codecs.managementKeys, ['id']],
  ['schedules', codecs.schedules, ['id']],
] as unknown as readonly (readonly [string, AnyCodec, readonly string[]])[];

export async function dumpAll(db: Kysely<Database>): Promise<StorageDump> {
  const dump: StorageDump = {};
  for (const [name, codec, orderBy] of sections) {
    let query = db.selectFrom(codec.table).selectAll();
    for (const column of orderBy) query = query.orderBy(column as never);
    const rows = await query.execute();
    dump[name] = rows.map((row) => codec.decode(row));
  }
  return dump;
}
