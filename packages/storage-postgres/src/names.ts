import { createHash } from 'node:crypto';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The schema name goes into SET search_path, CREATE SCHEMA and the channel name. Plain identifiers only, so none of
 * those needs escaping rules beyond double quotes, and a typo fails loudly at construction instead of at 3 a.m.
 */
export function validateSchema(schema: string): string {
  if (!IDENTIFIER.test(schema)) {
    throw new TypeError(`postgresStorage: schema must be a plain identifier (letters, digits, _), got ${JSON.stringify(schema)}`);
  }
  return schema;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * One channel per schema, so stores on different schemas of one database (tenants, test runs) never hear each
 * other. Channel names are identifiers: at most 63 bytes, hence the hash for long schema names.
 */
export function channelName(schema: string): string {
  const plain = `flagmount_changes_${schema}`;
  if (plain.length <= 63) return plain;
  return `flagmount_changes_${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
}

/**
 * Advisory lock keys: (class, hashtext(schema)). The class keeps ours apart from the host application's advisory
 * locks; the schema part lets stores on different schemas work independently.
 */
export const TRANSACTION_LOCK_CLASS = 0x464d_0001;
export const MIGRATION_LOCK_CLASS = 0x464d_0002;
/** Background jobs that one replica runs at a time (`tryLock`); the key is hashtext(schema || ':' || job). */
export const JOB_LOCK_CLASS = 0x464d_0003;
