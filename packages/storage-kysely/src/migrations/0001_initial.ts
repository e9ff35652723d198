import type { CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { DdlFlavour } from '../dialect.js';

// Migrations see the database untyped: they describe the schema the types in ../schema.ts are written against.
type Db = Kysely<any>;
type Table = CreateTableBuilder<string, string>;

/** The first schema: every table of the port, with an index for every lookup and ordered list the port makes. */
export function initialMigration(ddl: DdlFlavour): Migration {
  const text = ddl.text;
  const json = 'text' as const;
  const withSequence = (table: Table): Table =>
    ddl.sequence === 'identity'
      ? table.addColumn('seq', ddl.sequenceType, (c) => c.generatedByDefaultAsIdentity().primaryKey())
      : table.addColumn('seq', ddl.sequenceType, (c) => c.primaryKey());

  return {
    async up(db: Db) {
      const index = (name: string, table: string, columns: string[], unique = false) => {
        const builder = db.schema.createIndex(name).on(table).columns(columns);
        return (unique ? builder.unique() : builder).execute();
      };

      await db.schema
        .createTable('organizations')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      await index('organizations_created', 'organizations', ['created_at', 'id']);

      await db.schema
        .createTable('apps')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('org_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('demo', 'boolean', (c) => c.notNull())
        .addColumn('flag_key_format', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      await index('apps_created', 'apps', ['created_at', 'id']);
      await index('apps_org_created', 'apps', ['org_id', 'created_at', 'id']);

      await db.schema
        .createTable('environments')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('app_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('is_production', 'boolean', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('flag_state_version', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('publishable_key', text, (c) => c.notNull())
        .addColumn('secret_key', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      await index('environments_publishable_key', 'environments', ['publishable_key'], true);
      await index('environments_secret_key', 'environments', ['secret_key'], true);
      await index('environments_app_order', 'environments', ['app_id', 'sort_order', 'id']);

      await db.schema
        .createTable('stages')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('app_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('color', text, (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .execute();
      await index('stages_app_order', 'stages', ['app_id', 'sort_order', 'id']);

      await db.schema
        .createTable('segments')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('app_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('type', text, (c) => c.notNull())
        .addColumn('filter', json, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();
      await index('segments_app_created', 'segments', ['app_id', 'created_at', 'id']);

      await db.schema
        .createTable('members')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('org_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('email', text, (c) => c.notNull())
        .addColumn('avatar_url', text)
        .execute();
      await index('members_org_name', 'members', ['org_id', 'name', 'id']);

      await db.schema
        .createTable('flags')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('app_id', text, (c) => c.notNull())
        .addColumn('key', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('description', text)
        .addColumn('stage_id', text)
        .addColumn('owner_user_id', text)
        .addColumn('parent_flag_id', text)
        .addColumn('archived', 'boolean', (c) => c.notNull())
        .addColumn('permanent', 'boolean', (c) => c.notNull())
        .addColumn('secret', 'boolean', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addColumn('rolled_out_to_everyone_at', text)
        .addColumn('code_refs_cleaned_up', 'boolean', (c) => c.notNull())
        .addColumn('code_refs_marked_clean_user_name', text)
        .addColumn('code_refs_marked_clean_at', text)
        .execute();
      await index('flags_app_key', 'flags', ['app_id', 'key'], true);
      await index('flags_app_created', 'flags', ['app_id', 'created_at', 'id']);

      await db.schema
        .createTable('flag_targeting')
        .addColumn('flag_id', text, (c) => c.notNull())
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('rules', json, (c) => c.notNull())
        .addColumn('config_version', 'bigint', (c) => c.notNull())
        .addColumn('variants', json, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('flag_targeting_pk', ['flag_id', 'env_id'])
        .execute();
      await index('flag_targeting_env', 'flag_targeting', ['env_id', 'flag_id']);

      await db.schema
        .createTable('specific_targets')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('flag_id', text, (c) => c.notNull())
        .addColumn('entity_type', text, (c) => c.notNull())
        .addColumn('entity_id', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('specific_targets_pk', ['flag_id', 'env_id', 'entity_type', 'entity_id'])
        .execute();
      await index('specific_targets_env', 'specific_targets', ['env_id', 'flag_id', 'entity_type', 'entity_id']);
      await index('specific_targets_entity', 'specific_targets', ['env_id', 'entity_type', 'entity_id', 'flag_id']);

      await db.schema
        .createTable('entities')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('type', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('name', text)
        .addColumn('attributes', json, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('entities_pk', ['env_id', 'type', 'id'])
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('company_id', text, (c) => c.notNull())
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['env_id', 'company_id', 'user_id'])
        .execute();
      await index('memberships_user', 'memberships', ['env_id', 'user_id', 'company_id']);

      await withSequence(db.schema.createTable('track_events'))
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('company_id', text)
        .addColumn('event', text, (c) => c.notNull())
        .addColumn('attributes', json, (c) => c.notNull())
        .addColumn('timestamp', text, (c) => c.notNull())
        .execute();
      await index('track_events_env', 'track_events', ['env_id', 'seq']);
      await index('track_events_id', 'track_events', ['id'], true);

      await withSequence(db.schema.createTable('check_events'))
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('flag_key', text, (c) => c.notNull())
        .addColumn('targeting_version', 'bigint')
        .addColumn('user_id', text)
        .addColumn('company_id', text)
        .addColumn('eval_context', json)
        .addColumn('eval_result', json)
        .addColumn('eval_rule_results', json)
        .addColumn('eval_missing_fields', json)
        .addColumn('timestamp', text, (c) => c.notNull())
        .execute();
      await index('check_events_env', 'check_events', ['env_id', 'seq']);
      await index('check_events_id', 'check_events', ['id'], true);

      await withSequence(db.schema.createTable('prompt_events'))
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('feature_id', text)
        .addColumn('prompt_id', text)
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('prompted_question', text)
        .addColumn('timestamp', text, (c) => c.notNull())
        .execute();
      await index('prompt_events_env', 'prompt_events', ['env_id', 'seq']);
      await index('prompt_events_id', 'prompt_events', ['id'], true);

      await db.schema
        .createTable('feedback')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('company_id', text)
        .addColumn('flag_key', text)
        .addColumn('feature_id', text)
        .addColumn('prompt_id', text)
        .addColumn('question', text)
        .addColumn('prompted_question', text)
        .addColumn('source', text)
        .addColumn('score', 'double precision')
        .addColumn('comment', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('feedback_pk', ['env_id', 'id'])
        .execute();
      await index('feedback_env_created', 'feedback', ['env_id', 'created_at', 'id']);

      await db.schema
        .createTable('entity_flag_stats')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('entity_type', text, (c) => c.notNull())
        .addColumn('entity_id', text, (c) => c.notNull())
        .addColumn('flag_key', text, (c) => c.notNull())
        .addColumn('first_exposure_at', text)
        .addColumn('last_exposure_at', text)
        .addColumn('exposure_count', 'bigint', (c) => c.notNull())
        .addColumn('last_check_at', text)
        .addColumn('check_count', 'bigint', (c) => c.notNull())
        .addColumn('first_track_at', text)
        .addColumn('last_track_at', text)
        .addColumn('track_count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('entity_flag_stats_pk', ['env_id', 'entity_type', 'entity_id', 'flag_key'])
        .execute();

      await db.schema
        .createTable('flag_daily_stats')
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('flag_key', text, (c) => c.notNull())
        .addColumn('day', text, (c) => c.notNull())
        .addColumn('check_count', 'bigint', (c) => c.notNull())
        .addColumn('track_count', 'bigint', (c) => c.notNull())
        .addColumn('last_check_at', text)
        .addColumn('last_track_at', text)
        .addPrimaryKeyConstraint('flag_daily_stats_pk', ['env_id', 'flag_key', 'day'])
        .execute();

      await db.schema
        .createTable('audit')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('org_id', text, (c) => c.notNull())
        .addColumn('app_id', text)
        .addColumn('env_id', text)
        .addColumn('actor', text, (c) => c.notNull())
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('target_type', text, (c) => c.notNull())
        .addColumn('target_id', text, (c) => c.notNull())
        .addColumn('change_description', text)
        .addColumn('before', json)
        .addColumn('after', json)
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      await index('audit_org_created', 'audit', ['org_id', 'created_at', 'id']);
      await index('audit_org_app_created', 'audit', ['org_id', 'app_id', 'created_at', 'id']);

      await db.schema
        .createTable('management_keys')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('org_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('scopes', json, (c) => c.notNull())
        .addColumn('hash', text, (c) => c.notNull())
        .addColumn('prefix', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('last_used_at', text)
        .addColumn('revoked_at', text)
        .execute();
      await index('management_keys_hash', 'management_keys', ['hash'], true);
      await index('management_keys_org_created', 'management_keys', ['org_id', 'created_at', 'id']);

      // The notice log of stores without a push channel (SQLite): committed notices, read by the other processes
      // sharing the database. Postgres carries notices by NOTIFY and leaves it empty.
      await withSequence(db.schema.createTable('change_notices'))
        .addColumn('env_id', text, (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('origin', text, (c) => c.notNull())
        .addColumn('explicit', 'boolean', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      await index('change_notices_created', 'change_notices', ['created_at']);
    },
  };
}
