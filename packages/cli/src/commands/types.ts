import { resolveApp, withApi } from '../connect.js';
import { usageError } from '../errors.js';
import type { ExportDocument } from '../export-document.js';
import { generateTypes } from '../generate-types.js';
import type { CliIo } from '../io.js';
import { CONNECTION_OPTIONS, parse } from '../options.js';
import { writeOut } from './write-out.js';

export async function typesCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parse(args, { ...CONNECTION_OPTIONS, out: { type: 'string' }, only: { type: 'string' }, openfeature: { type: 'boolean' } });
  if (values.only !== undefined && values.only !== 'reflag' && values.only !== 'flagmount') throw usageError(`--only must be reflag or flagmount, not "${values.only}"`);
  const doc = await withApi(values, io, async (api) => {
    const app = await resolveApp(api, values.app);
    return api.request<ExportDocument>('GET', `/apps/${encodeURIComponent(app.id)}/export`);
  });
  const text = generateTypes(doc, { reflag: values.only !== 'flagmount', flagmount: values.only !== 'reflag', openfeature: values.openfeature === true });
  writeOut(text, values.out, io, `${doc.flags.filter((f) => !f.archived).length} flag types`);
}
