import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { AuditEntry, FlagHeader, ListAudit } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Loading } from '../../components/states.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { dateTime } from '../../lib/format.js';
import { useWorkspace } from '../../workspace.js';
import { describeChange, type Names } from './history-diff.js';

/** `actorName` once the API carries it (the host's person or the key's name), else the actor id. */
const actorOf = (entry: AuditEntry) => (entry as AuditEntry & { actorName?: string | null }).actorName ?? entry.actor;

/** The flag's audit entries, newest first, each change in words; "Older changes" pages back through the audit. */
export function History({ flag, names }: { flag: FlagHeader; names: Names }) {
  const { api } = useSession();
  const { app, envs } = useWorkspace();
  const [older, setOlder] = useState<{ entries: AuditEntry[]; cursor: string | null }>({ entries: [], cursor: null });
  const more = useAction();
  const first = useResource(() => api.get<ListAudit>(`apps/${seg(app.id)}/audit`, { limit: 500 }), [api, app.id, flag.id]);
  if (first.error) return <ApiErrorBox error={first.error} />;
  if (!first.data) return <Loading label="Loading history" />;
  const cursor = older.cursor ?? (older.entries.length ? null : first.data.nextCursor);
  const entries = [...first.data.data, ...older.entries].filter((e) => e.targetId === flag.id);
  const loadMore = async () => {
    if (!cursor) return;
    const page = await more.run(() => api.get<ListAudit>(`apps/${seg(app.id)}/audit`, { limit: 500, before: cursor }));
    if (page) setOlder({ entries: [...older.entries, ...page.data], cursor: page.nextCursor });
  };
  const envName = (id: string | null) => (id ? (envs.find((e) => e.id === id)?.name ?? id) : undefined);
  return (
    <div>
      {entries.length === 0 ? <p class="muted">No changes in the loaded history.</p> : null}
      <ol class="history">
        {entries.map((entry) => (
          <li key={entry.id}>
            <p>
              <strong>{entry.action.replace(/^flag\./, '').replace(/[._]/g, ' ')}</strong>
              {envName(entry.envId) ? ` in ${envName(entry.envId)}` : ''} by {actorOf(entry)}, <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
            </p>
            {entry.changeDescription ? <p class="muted">“{entry.changeDescription}”</p> : null}
            <ul class="changes">
              {describeChange(entry.before, entry.after, names).map((line, i) => (
                <li key={i} class={`change ${line.kind}`}>
                  {line.kind === 'added' ? <span class="sign">Added </span> : line.kind === 'removed' ? <span class="sign">Removed </span> : null}
                  {line.kind === 'field' ? (
                    <>
                      {line.text}: <del>{line.before}</del> → <ins>{line.after}</ins>
                    </>
                  ) : (
                    line.text
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {cursor ? (
        <button type="button" disabled={more.busy} onClick={loadMore}>
          Older changes
        </button>
      ) : null}
      <ApiErrorBox error={more.error} />
    </div>
  );
}
