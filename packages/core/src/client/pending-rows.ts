import type { EntityUpsert } from '../ingestion/ingest-batch.js';
import type { EntityFlagStatsRecord, MembershipRecord } from '../storage/records.js';
import { attributesOf } from './analytics-rows.js';
import { COMPANY } from './entity-cache.js';

const FIRST_ROWS = 256;

const iso = (ms: number) => new Date(ms).toISOString();
const entityType = (kind: number): 'user' | 'company' => (kind === COMPANY ? 'company' : 'user');

function grownInts(from: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const to = new Int32Array(from.length * 2);
  to.set(from);
  return to;
}

function grownTimes(from: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const to = new Float64Array(from.length * 2);
  to.set(from);
  return to;
}

/**
 * Rows waiting for the flush, in flat arrays that grow by doubling and are reused after each flush: adding a row
 * allocates nothing once the table has grown to the traffic. Their number is bounded by the buffer's budgets.
 */
abstract class PendingTable {
  length = 0;
  protected capacity = FIRST_ROWS;
  /**
   * The serial of row 0: rows are named by serials that never repeat (a cache slot keeps one), so that a serial of
   * an earlier flush is told from a pending row without clearing every slot that named one.
   */
  private base = 0;

  /** Whether `serial` names a row of this flush. */
  holds(serial: number): boolean {
    return serial >= this.base;
  }

  /** The row of a serial this flush `holds`. */
  protected row(serial: number): number {
    return serial - this.base;
  }

  /** The index of a new row, growing the arrays when full. */
  protected next(): number {
    if (this.length === this.capacity) {
      this.capacity *= 2;
      this.grow();
    }
    return this.length++;
  }

  /** The serial of a row just added. */
  protected serial(row: number): number {
    return this.base + row;
  }

  /** Empties the table after its rows were drained (the arrays are kept for the next flush's rows). */
  protected reset(): void {
    this.base += this.length;
    this.length = 0;
  }

  protected abstract grow(): void;
}

/** Checks and exposures per (entity, flag) since the last flush: what the entity flag stats rows get added. */
export class PendingTallies extends PendingTable {
  private kinds = new Int32Array(FIRST_ROWS);
  private readonly ids: Array<string | null> = [];
  private readonly flagKeys: Array<string | null> = [];
  private checks = new Int32Array(FIRST_ROWS);
  private exposures = new Int32Array(FIRST_ROWS);
  private firstExposure = new Float64Array(FIRST_ROWS);
  private lastExposure = new Float64Array(FIRST_ROWS);
  private lastCheck = new Float64Array(FIRST_ROWS);

  add(kind: number, id: string, flagKey: string): number {
    const row = this.next();
    this.kinds[row] = kind;
    this.ids[row] = id;
    this.flagKeys[row] = flagKey;
    this.checks[row] = 0;
    this.exposures[row] = 0;
    this.firstExposure[row] = Infinity;
    this.lastExposure[row] = -Infinity;
    this.lastCheck[row] = -Infinity;
    return this.serial(row);
  }

  count(serial: number, exposure: boolean, now: number): void {
    const row = this.row(serial);
    this.checks[row] = this.checks[row]! + 1;
    if (now > this.lastCheck[row]!) this.lastCheck[row] = now;
    if (!exposure) return;
    this.exposures[row] = this.exposures[row]! + 1;
    if (now < this.firstExposure[row]!) this.firstExposure[row] = now;
    if (now > this.lastExposure[row]!) this.lastExposure[row] = now;
  }

  /** The rows as stats records (a pair met twice, after its cache slot was reused, is merged by the writer). */
  drain(envId: string, out: EntityFlagStatsRecord[]): void {
    for (let row = 0; row < this.length; row++) {
      const exposed = this.exposures[row]! > 0;
      out.push({
        envId,
        entityType: entityType(this.kinds[row]!),
        entityId: this.ids[row]!,
        flagKey: this.flagKeys[row]!,
        firstExposureAt: exposed ? iso(this.firstExposure[row]!) : null,
        lastExposureAt: exposed ? iso(this.lastExposure[row]!) : null,
        exposureCount: this.exposures[row]!,
        lastCheckAt: iso(this.lastCheck[row]!),
        checkCount: this.checks[row]!,
        firstTrackAt: null,
        lastTrackAt: null,
        trackCount: 0,
      });
    }
    // Drop the references, keep the arrays: the next flush's rows reuse them.
    this.ids.fill(null, 0, this.length);
    this.flagKeys.fill(null, 0, this.length);
    this.reset();
  }

  protected grow(): void {
    this.kinds = grownInts(this.kinds);
    this.checks = grownInts(this.checks);
    this.exposures = grownInts(this.exposures);
    this.firstExposure = grownTimes(this.firstExposure);
    this.lastExposure = grownTimes(this.lastExposure);
    this.lastCheck = grownTimes(this.lastCheck);
  }
}

/** Users' and companies' attributes to store (the node SDK's context sync), copied only at the flush. */
export class PendingSyncs extends PendingTable {
  private kinds = new Int32Array(FIRST_ROWS);
  private readonly ids: Array<string | null> = [];
  private readonly attributes: Array<Record<string, unknown> | null> = [];
  private at = new Float64Array(FIRST_ROWS);

  add(kind: number, id: string, attributes: Record<string, unknown>, now: number): number {
    const row = this.next();
    this.kinds[row] = kind;
    this.ids[row] = id;
    this.attributes[row] = attributes;
    this.at[row] = now;
    return this.serial(row);
  }

  /** A second object for the same entity before the flush: the attributes of both, the later winning (as two upserts). */
  merge(serial: number, attributes: Record<string, unknown>, now: number): void {
    const row = this.row(serial);
    this.attributes[row] = { ...this.attributes[row], ...attributes };
    this.at[row] = now;
  }

  drain(envId: string, out: EntityUpsert[]): void {
    for (let row = 0; row < this.length; row++) {
      // Attributes JSON cannot hold cannot be stored: that entity is not synced (its checks still count).
      const attributes = attributesOf(this.attributes[row]!);
      if (attributes !== undefined) out.push({ envId, type: entityType(this.kinds[row]!), id: this.ids[row]!, attributes, at: iso(this.at[row]!) });
    }
    this.ids.fill(null, 0, this.length);
    this.attributes.fill(null, 0, this.length);
    this.reset();
  }

  protected grow(): void {
    this.kinds = grownInts(this.kinds);
    this.at = grownTimes(this.at);
  }
}

/** Users newly associated with a company. */
export class PendingMemberships extends PendingTable {
  private readonly companyIds: Array<string | null> = [];
  private readonly userIds: Array<string | null> = [];
  private at = new Float64Array(FIRST_ROWS);

  add(companyId: string, userId: string, now: number): void {
    const row = this.next();
    this.companyIds[row] = companyId;
    this.userIds[row] = userId;
    this.at[row] = now;
  }

  drain(envId: string, memberships: MembershipRecord[], entities: EntityUpsert[]): void {
    for (let row = 0; row < this.length; row++) {
      const at = iso(this.at[row]!);
      const userId = this.userIds[row]!;
      memberships.push({ envId, companyId: this.companyIds[row]!, userId, createdAt: at });
      // The user of a membership exists, as after `POST /company` with a userId.
      entities.push({ envId, type: 'user', id: userId, attributes: {}, at });
    }
    this.companyIds.fill(null, 0, this.length);
    this.userIds.fill(null, 0, this.length);
    this.reset();
  }

  protected grow(): void {
    this.at = grownTimes(this.at);
  }
}
