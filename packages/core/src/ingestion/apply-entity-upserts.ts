import type { Repositories } from '../storage/port.js';
import type { EntityRecord } from '../storage/records.js';
import type { EntityUpsert } from './ingest-batch.js';

/**
 * Merges attribute updates into stored entities, in order, inside the caller's transaction. Sent attributes
 * replace stored ones key by key; an array is one attribute and replaces the stored list whole (`[]` clears it).
 */
export async function applyEntityUpserts(tx: Repositories, upserts: EntityUpsert[]): Promise<EntityRecord[]> {
  const merged = new Map<string, EntityRecord>();
  const byKind = new Map<string, EntityUpsert[]>();
  for (const u of upserts) {
    const kind = `${u.envId}\u0000${u.type}`;
    (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(u);
  }
  for (const list of byKind.values()) {
    const { envId, type } = list[0]!;
    const ids = [...new Set(list.map((u) => u.id))];
    for (const row of await tx.entities.getMany(envId, type, ids)) merged.set(`${envId}\u0000${type}\u0000${row.id}`, row);
    for (const u of list) {
      const key = `${envId}\u0000${type}\u0000${u.id}`;
      const prev = merged.get(key);
      const attributes = { ...(prev?.attributes ?? {}), ...u.attributes };
      const nameAttribute = typeof u.attributes['name'] === 'string' ? (u.attributes['name'] as string) : undefined;
      merged.set(key, {
        envId,
        type,
        id: u.id,
        name: u.name !== undefined ? u.name : (nameAttribute ?? prev?.name ?? null),
        attributes,
        createdAt: prev?.createdAt ?? u.at,
        updatedAt: u.at,
      });
    }
  }
  const rows = [...merged.values()];
  for (const row of rows) await tx.entities.put(row);
  return rows;
}
