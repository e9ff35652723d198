import { resolveApp, withApi } from '../connect.js';
import { readDocument } from '../document-file.js';
import { usageError } from '../errors.js';
import type { ImportChange, ImportResponse } from '../export-document.js';
import type { CliIo } from '../io.js';
import { CONNECTION_OPTIONS, parse } from '../options.js';

const SIGN = { create: '+', update: '~', unchanged: '=' } as const;

function describe(change: ImportChange): string {
  const where = `${change.environment !== undefined ? ` in ${change.environment}` : ''}${change.at !== undefined ? ` at ${change.at}` : ''}`;
  const fields = change.fields.length ? ` (${change.fields.join(', ')})` : '';
  return `${SIGN[change.action]} ${change.resource} ${change.name}${where}${fields}`;
}

export async function importCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, 'dry-run': { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw usageError('flagmount import needs the file to import');
  const doc = readDocument(file.startsWith('/') ? file : `${io.cwd}/${file}`);
  const dryRun = values['dry-run'] ?? false;
  const query = { dryRun: String(dryRun) };
  const answer = await withApi(
    values,
    io,
    async (api) => {
      if (values.app === undefined) return api.request<ImportResponse>('POST', '/apps/import', { query, body: doc });
      const app = await resolveApp(api, values.app);
      return api.request<ImportResponse>('POST', `/apps/${encodeURIComponent(app.id)}/import`, { query, body: doc });
    },
    !dryRun,
  );
  for (const change of answer.changes) if (change.action !== 'unchanged') io.stdout(`${describe(change)}\n`);
  const { create, update, unchanged } = answer.summary;
  io.stdout(
    dryRun
      ? `Dry run: ${create} to create, ${update} to update, ${unchanged} unchanged. Nothing was changed.\n`
      : `Imported: ${create} created, ${update} updated, ${unchanged} unchanged.\n`,
  );
}
