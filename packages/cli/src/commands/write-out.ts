import { writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { CliError, EXIT } from '../errors.js';
import type { CliIo } from '../io.js';

/** Prints `text`, or writes it to `out` and says so on stderr (stdout stays clean for pipes). */
export function writeOut(text: string, out: string | undefined, io: CliIo, what: string): void {
  if (out === undefined) return io.stdout(text);
  try {
    writeFileSync(isAbsolute(out) ? out : join(io.cwd, out), text);
  } catch (error) {
    throw new CliError(`Cannot write ${out}: ${(error as { code?: string }).code ?? String(error)}`, EXIT.refused);
  }
  io.stderr(`Wrote ${what} to ${out}\n`);
}
