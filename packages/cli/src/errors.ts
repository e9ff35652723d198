/**
 * Exit codes, documented in docs/cli.md: scripts branch on them.
 * 0 success; 1 refused (Flagmount said no: invalid document, unknown flag, …) or a file that cannot be read;
 * 2 wrong usage (unknown command or option, missing argument); 3 the store or URL cannot be reached or opened;
 * 4 the management key was refused or lacks the scope.
 */
export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3, auth: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake of the user or of their setup: printed as one line (plus `details`), never as a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Further lines, such as the field path of every problem of a refused file. */
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(`${message} (see flagmount --help)`, EXIT.usage);
