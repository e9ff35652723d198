import { ApiError } from '../api/client.js';

/**
 * An API failure where it happened: the message, and the `issues` the form has no field for (a form shows the
 * others next to their fields with `issuesAt`). `paths` lists the field paths the form displays itself.
 */
export function ApiErrorBox({ error, paths = [] }: { error: unknown; paths?: string[] }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const rest = error instanceof ApiError ? Object.entries(error.issues).filter(([p]) => !paths.some((f) => p === f || p.startsWith(`${f}.`))) : [];
  return (
    <div class="error-box" role="alert">
      <p>{describe(error, message)}</p>
      {rest.length > 0 && (
        <ul>
          {rest.map(([path, messages]) => (
            <li key={path}>
              {path ? <code>{path}</code> : null} {messages.join('; ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function describe(error: unknown, message: string): string {
  if (!(error instanceof ApiError)) return message;
  if (error.status === 403) return `Not allowed: ${message}`;
  if (error.status === 401) return 'Your session ended. Reload the page and sign in again.';
  // Optimistic concurrency (`ifVersion`): the write was refused rather than overwrite someone else's.
  if (error.code === 'not_possible' && error.issues['ifVersion']) return 'Someone else saved a change here since you loaded it. Reload to see it, then make your change again.';
  return message;
}

/** The messages for one field of a failed request (empty when it was something else). */
export function issuesAt(error: unknown, path: string, nested = false): string[] {
  return error instanceof ApiError ? error.issuesAt(path, nested) : [];
}
