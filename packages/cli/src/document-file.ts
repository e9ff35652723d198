import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { CliError, EXIT, usageError } from './errors.js';

export type Format = 'json' | 'yaml';

/** `--format`, else the extension of `--out` (`.yaml`/`.yml`), else JSON. */
export function formatOf(format: string | undefined, out: string | undefined): Format {
  if (format !== undefined) {
    if (format !== 'json' && format !== 'yaml') throw usageError(`--format must be json or yaml, not "${format}"`);
    return format;
  }
  return out && ['.yaml', '.yml'].includes(extname(out).toLowerCase()) ? 'yaml' : 'json';
}

/**
 * The export document as text: the object's key order as the API answers it (fixed), two-space indents, a final
 * newline, so that the same setup always gives the same bytes.
 */
export function serialize(doc: unknown, format: Format): string {
  return format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : stringifyYaml(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** A file's document: JSON or YAML (by extension, else by its first character). */
export function readDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`, EXIT.refused);
  }
  const ext = extname(file).toLowerCase();
  const yaml = ext === '.yaml' || ext === '.yml' || (ext !== '.json' && !text.trimStart().startsWith('{'));
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CliError(`${file} is not valid ${yaml ? 'YAML' : 'JSON'}: ${message}`, EXIT.refused);
  }
}
