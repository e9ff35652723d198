import type { AuditEntry } from '../../api/types.js';
import { changesOf } from './changes.js';

/**
 * The name of who made the change: the person's name when the server knows it (`actorName`, added with host
 * sign-in), else the name of the management key it used, else the actor id (`sdk:<envId>`, `system`).
 */
export function actorLabel(entry: AuditEntry, keyName: (id: string) => string | undefined): string {
  const named = (entry as AuditEntry & { actorName?: string | null }).actorName;
  return named ?? keyName(entry.actor) ?? entry.actor;
}

const sides = (entry: AuditEntry) => [entry.after, entry.before].filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null);

/** What a target is called for a reader: a flag by its key, anything else by its name, else its id. */
function targetLabel(entry: AuditEntry, flagKey: (id: string) => string | undefined): string {
  if (entry.targetType === 'flag') return flagKey(entry.targetId) ?? entry.targetId;
  for (const s of sides(entry)) {
    if (typeof s['key'] === 'string') return s['key'];
    if (typeof s['name'] === 'string') return s['name'];
  }
  return entry.targetId;
}

/** The user or company a specific-targeting entry is about. */
function entityOf(entry: AuditEntry): string | null {
  for (const s of sides(entry)) if (typeof s['entityType'] === 'string' && typeof s['entityId'] === 'string') return `${s['entityType']} ${s['entityId']}`;
  return null;
}

export function AuditItem(props: { entry: AuditEntry; actor?: string; flagKey: (id: string) => string | undefined; envName: (id: string) => string; appName: (id: string) => string; segmentName: (id: string) => string }) {
  const { entry, actor = actorLabel(entry, () => undefined), flagKey, envName, appName, segmentName } = props;
  const entity = entityOf(entry);
  const changes = changesOf(entry.before, entry.after, segmentName);
  return (
    <li class="audit-entry" data-action={entry.action}>
      <p>
        <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time> — <strong>{actor}</strong>{' '}
        <span class="badge">{entry.action}</span> {entry.targetType} <code>{targetLabel(entry, flagKey)}</code>
        {entity ? ` for ${entity}` : ''}
        {entry.envId ? ` in ${envName(entry.envId)}` : ''}
        {entry.appId ? <span class="muted"> ({appName(entry.appId)})</span> : null}
      </p>
      {entry.changeDescription ? <p class="muted">“{entry.changeDescription}”</p> : null}
      {changes.length ? (
        <ul class="diff">
          {changes.map((c) => {
            // One-line values read as "field: old → new"; rules and variants as lines, one per rule.
            const inline = (c.before?.length ?? 0) <= 1 && (c.after?.length ?? 0) <= 1;
            return (
              <li key={c.field} class={inline ? 'inline' : undefined}>
                <strong>{c.field}</strong>
                {c.before ? (
                  <del>
                    <span class="visually-hidden">before: </span>
                    {c.before.map((line, i) => (inline ? line : <pre key={i}>− {line}</pre>))}
                  </del>
                ) : null}
                {inline && c.before && c.after ? <span aria-hidden="true"> → </span> : null}
                {c.after ? (
                  <ins>
                    <span class="visually-hidden">after: </span>
                    {c.after.map((line, i) => (inline ? line : <pre key={i}>+ {line}</pre>))}
                  </ins>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}
