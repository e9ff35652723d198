import type { EnvironmentRecord } from '../storage/records.js';
import { newId, newPublishableKey, newSecretKey } from './ids.js';

/** A new environment: version 0 and fresh SDK keys (an app's create, an environment's, an import's). */
export function newEnvironmentRecord(fields: Pick<EnvironmentRecord, 'appId' | 'name' | 'isProduction' | 'order' | 'createdAt'>): EnvironmentRecord {
  return { id: newId('en'), ...fields, flagStateVersion: 0, publishableKey: newPublishableKey(), secretKey: newSecretKey() };
}
