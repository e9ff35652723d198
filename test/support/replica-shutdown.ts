/**
 * A replica's life in one process with nothing else to keep it alive (no server, no IPC): start Flagmount on a
 * Postgres schema (FLAGMOUNT_PG_URL, FLAGMOUNT_PG_SCHEMA), evaluate once, close. Prints one JSON line once close()
 * has resolved; if close() never resolved the process would end without it (the event loop running dry while
 * close() awaits something unref'd), which is what the test looks for.
 *
 *   node --import tsx test/support/replica-shutdown.ts
 */
import { createFlagmount } from '@flagmount/core';
import { postgresStorage } from '@flagmount/storage-postgres';

const instance = await createFlagmount({
  storage: postgresStorage({ connectionString: process.env['FLAGMOUNT_PG_URL']!, schema: process.env['FLAGMOUNT_PG_SCHEMA']! }),
  bootstrap: true,
});
const created = instance.bootstrap?.created ?? false;
const enabled = instance.client.isEnabled('replicated', { user: { id: 'alice' }, enableTracking: false });
await instance.close();
process.stdout.write(`${JSON.stringify({ closed: true, created, enabled })}\n`);
