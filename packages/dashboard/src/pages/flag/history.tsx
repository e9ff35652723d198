import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { AuditEntry, FlagHeader, ListAudit } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Loading } from '../../components/states.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { AuditItem } from '../audit/audit-item.js';

/**
 * The flag's audit entries, newest first, each change in words as the Audit page shows them (rules as rules);
 * "Older changes" pages back through the app's audit.
 */
export function History({ flag, segmentName }: { flag: FlagHeader; segmentName: (id: string) => string }) {
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
  const envName = (id: string) => envs.find((e) => e.id === id)?.name ?? id;
  return (
    <div>
      {entries.length === 0 ? <p class="muted">No changes in the loaded history.</p> : null}
      <ol class="audit-list">
        {entries.map((entry) => (
          <AuditItem key={entry.id} entry={entry} flagKey={() => flag.key} envName={envName} appName={() => app.name} segmentName={segmentName} />
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
