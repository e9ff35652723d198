import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Where the commands read and write: a running mount, or a store opened on this machine. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  db: { type: 'string' },
  pg: { type: 'string' },
  schema: { type: 'string' },
  app: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export interface Connection {
  url?: string | undefined;
  key?: string | undefined;
  db?: string | undefined;
  pg?: string | undefined;
  schema?: string | undefined;
  app?: string | undefined;
}

/** Option values: strings, except the boolean switches (`--dry-run`, `--openfeature`, `--help`). */
export type Values = Connection & { [name: string]: string | undefined } & { 'dry-run'?: boolean; openfeature?: boolean; help?: boolean };

/** `util.parseArgs`, strict, its errors turned into one usage line. */
export function parse(args: readonly string[], options: Options, positionals = 0): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    if (parsed.positionals.length > positionals) throw usageError(`Unexpected argument "${parsed.positionals[positionals]}"`);
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      throw usageError(error.message.split('. ')[0]!.replace(/\.$/, ''));
    }
    throw error;
  }
}
