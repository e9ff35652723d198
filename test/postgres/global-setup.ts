import { postgresAvailable, postgresUrl, redact } from '../support/postgres.js';

/**
 * Global setup of the `postgres` project: asks the server once for the whole run. Without one, outside CI, it
 * prints the run's single "SKIPPED …" line and tells every test file (through FLAGMOUNT_PG_CHECKED, inherited by
 * the workers) to skip quietly; with CI=true it fails the run.
 */
export default async function setup(): Promise<void> {
  const availability = await postgresAvailable(postgresUrl);
  if (availability.ok) {
    process.env['FLAGMOUNT_PG_CHECKED'] = 'available';
    return;
  }
  const message = `Postgres tests: no Postgres at ${redact(postgresUrl)} (${availability.reason}); set FLAGMOUNT_PG_URL`;
  if (process.env['CI'] === 'true') throw new Error(`${message} — required when CI=true`);
  process.env['FLAGMOUNT_PG_CHECKED'] = 'absent';
  process.stderr.write(`SKIPPED ${message}\n`);
}
