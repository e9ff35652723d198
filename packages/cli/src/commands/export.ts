import { resolveApp, withApi } from '../connect.js';
import { formatOf, serialize } from '../document-file.js';
import type { CliIo } from '../io.js';
import { CONNECTION_OPTIONS, parse } from '../options.js';
import { writeOut } from './write-out.js';

export async function exportCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parse(args, { ...CONNECTION_OPTIONS, format: { type: 'string' }, out: { type: 'string' } });
  const format = formatOf(values.format, values.out);
  const doc = await withApi(values, io, async (api) => {
    const app = await resolveApp(api, values.app);
    return api.request('GET', `/apps/${encodeURIComponent(app.id)}/export`);
  });
  writeOut(serialize(doc, format), values.out, io, 'the export');
}
