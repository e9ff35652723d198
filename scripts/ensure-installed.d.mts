/** Installs the package at `dir` (relative to the repository root) from its own lockfile when it is not yet. */
export function ensureInstalled(dir: string, what: string): void;
