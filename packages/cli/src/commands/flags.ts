import { filterMatchesEveryone } from '@flagmount/core';
import { resolveApp, withApi, type AppSummary } from '../connect.js';
import { CliError, EXIT, usageError } from '../errors.js';
import type { ExportDocument, ExportTargeting } from '../export-document.js';
import type { CliIo } from '../io.js';
import { CONNECTION_OPTIONS, parse } from '../options.js';
import { table } from '../table.js';

type Status = 'off' | 'targeted' | 'everyone';

/** As the core recognises "everyone": a rule whose filter (and segment, if any) match whatever the context is. */
function statusOf(targeting: ExportTargeting | undefined, segments: ExportDocument['segments']): Status {
  const rules = targeting?.rules ?? [];
  if (!rules.length) return 'off';
  const everyone = rules.some((rule) => {
    const segment = rule.segment === undefined ? undefined : segments.find((s) => s.name === rule.segment);
    if (rule.segment !== undefined && !(segment && (segment.type === 'all' || filterMatchesEveryone(segment.filter)))) return false;
    return filterMatchesEveryone(rule.filter);
  });
  // A flag gated by other flags reaches only whom they reach (as the core's "rolled out to everyone").
  return everyone && !targeting?.prerequisites?.length ? 'everyone' : 'targeted';
}

async function list(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parse(args, CONNECTION_OPTIONS);
  const doc = await withApi(values, io, async (api) => {
    const app = await resolveApp(api, values.app);
    return api.request<ExportDocument>('GET', `/apps/${encodeURIComponent(app.id)}/export`);
  });
  const envs = doc.environments.map((e) => e.name);
  const rows = doc.flags.map((f) => [
    f.key,
    f.archived ? `${f.name} (archived)` : f.name,
    f.stage ?? '-',
    ...envs.map((env) => statusOf(f.targeting[env], doc.segments)),
  ]);
  if (!rows.length) return io.stdout(`No flags in ${doc.app.name}.\n`);
  io.stdout(table(['KEY', 'NAME', 'STAGE', ...envs.map((e) => e.toUpperCase())], rows));
}

function environmentOf(app: AppSummary, wanted: string): AppSummary['environments'][number] {
  const env = app.environments.find((e) => e.id === wanted) ?? app.environments.find((e) => e.name.toLowerCase() === wanted.toLowerCase());
  if (!env) throw new CliError(`No environment "${wanted}" in ${app.name} (environments: ${app.environments.map((e) => e.name).join(', ')})`, EXIT.refused);
  return env;
}

/** on: one constant-true rule (everyone); off: no rule. The config is left as stored (no `config` in the body). */
async function toggle(on: boolean, args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, env: { type: 'string' } }, 1);
  const key = positionals[0];
  if (key === undefined) throw usageError(`flagmount flags ${on ? 'on' : 'off'} needs a flag key`);
  if (values.env === undefined) throw usageError(`flagmount flags ${on ? 'on' : 'off'} needs --env <environment>`);
  const rules = on ? [{ filter: { type: 'constant', value: true } }] : [];
  const answer = await withApi(values, io, async (api) => {
    const app = await resolveApp(api, values.app);
    const env = environmentOf(app, values.env!);
    const path = `/apps/${encodeURIComponent(app.id)}/flags/${encodeURIComponent(key)}/targeting/${encodeURIComponent(env.id)}`;
    const result = await api.request<{ targeting: { version: number }; flagStateVersion: number }>('PUT', path, { body: { rules } });
    return { env, result };
  });
  io.stdout(`${key} is ${on ? 'on for everyone' : 'off'} in ${answer.env.name} (targeting version ${answer.result.targeting.version}).\n`);
}

export async function flagsCommand(args: readonly string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'list') return list(rest, io);
  if (sub === 'on' || sub === 'off') return toggle(sub === 'on', rest, io);
  throw usageError(sub === undefined ? 'flagmount flags needs list, on or off' : `Unknown flags command "${sub}"`);
}
