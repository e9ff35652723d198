export { kyselyStorage, type KyselyStorageOptions } from './store.js';
export type { DataTypeExpression, DdlFlavour, KyselyStoreDialect } from './dialect.js';
export type { ValueEncoding, FieldKind } from './codec.js';
export type * from './schema.js';
export { ChangeHub, type NoticeSource } from './notices.js';
export { VersionPoller, type ChangeFeed, type FeedContext, type VersionPollerOptions } from './poller.js';
export { silentLogger, toLogger, describeError, type StorageLogger } from './logger.js';
export { migrationProvider, MIGRATION_TABLE, MIGRATION_LOCK_TABLE } from './migrations/index.js';
export { NoticeLogFeed, appendNotices, type NoticeLogFeedOptions } from './notice-log.js';
