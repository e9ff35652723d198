import { useCallback, useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  /** The last failure (an ApiError with `issues` when the server sent them), until the next run or `clear`. */
  error: unknown;
  /** Runs one write; resolves its result, or undefined when it failed (the error is then in `error`). */
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
  clear(): void;
}

/** One write of a form or a row: busy while it runs, and its error kept where the write was made. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { busy, error, run, clear };
}

/** A copy of `list` with the item at `from` moved by `by` places (for "move up / down" buttons). */
export function moved<T>(list: readonly T[], from: number, by: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(out.length, from + by)), 0, item as T);
  return out;
}
