export { run } from './run.js';
export { EXIT, CliError, type ExitCode } from './errors.js';
export type { CliIo } from './io.js';
export { generateTypes, jsonType, type TypesOptions } from './generate-types.js';
