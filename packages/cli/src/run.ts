import { exportCommand } from './commands/export.js';
import { flagsCommand } from './commands/flags.js';
import { importCommand } from './commands/import.js';
import { typesCommand } from './commands/types.js';
import { CliError, EXIT, usageError, type ExitCode } from './errors.js';
import { HELP } from './help.js';
import type { CliIo } from './io.js';

const COMMANDS: Record<string, (args: readonly string[], io: CliIo) => Promise<void>> = {
  types: typesCommand,
  export: exportCommand,
  import: importCommand,
  flags: flagsCommand,
};

const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

/**
 * Runs one command line; resolves its exit code. A user's mistake (and an unreachable store or URL) prints one
 * line on stderr, plus the path of every problem where there are several; only a bug prints a stack.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [command, ...args] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(`${HELP[args[0] ?? 'main'] ?? HELP['main']}\n`);
      return EXIT.ok;
    }
    const handler = COMMANDS[command];
    if (!handler) throw usageError(`Unknown command "${command}"`);
    if (wantsHelp(args)) {
      io.stdout(`${HELP[command]}\n`);
      return EXIT.ok;
    }
    await handler(args, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`flagmount: ${error.message}\n${error.details.map((d) => `${d}\n`).join('')}`);
      return error.exitCode;
    }
    io.stderr(`flagmount: unexpected error (a bug; please report it)\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.refused;
  }
}
