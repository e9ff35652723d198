import { sqliteStorage } from '@flagmount/storage-sqlite';
import { describe, it } from 'vitest';
import { expressFactory } from '../support/adapters.js';
import { startHarness } from '../support/harness.js';
import { checkPreviewAgainstDirectEvaluation } from './preview-check.js';

describe('POST …/targeting/{envId}/preview: counts equal a direct evaluation of every stored entity', () => {
  for (const [name, storage] of [
    ['memory', undefined],
    ['sqlite', () => sqliteStorage({ filename: ':memory:' })],
  ] as const) {
    it(name, async () => {
      const h = await startHarness(expressFactory, storage ? { storage: storage() } : {});
      try {
        await checkPreviewAgainstDirectEvaluation(h);
      } finally {
        await h.close();
      }
    }, 60_000);
  }
});
