import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { sqliteBackend } from './support/outage-backends.js';
import { describeDatabaseGoesAway } from './support/outage-suite.js';

/**
 * Storage outage (issue 10), SQLite: the database goes away while the app serves. Flag evaluation (HTTP and the
 * in-process client) keeps answering from the last snapshot; writes answer 503 with the error body and leave nothing
 * half-applied; service resumes on its own when the database returns. The tests are declared once for every
 * backend in support/outage-suite.ts; how SQLite is taken away is in support/outage-backends.ts.
 */

const tmp = mkdtempSync(join(tmpdir(), 'flagmount-outage-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describeDatabaseGoesAway('sqlite', async () => sqliteBackend(tmp));
