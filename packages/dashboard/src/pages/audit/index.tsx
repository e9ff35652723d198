import '../resources.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { AuditEntry, ListAudit, ListAuditQuery, ListFlags, ListKeys, ListSegments } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { Empty, Loading } from '../../components/states.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { ALL, AuditFilters, type AuditFilterValues, type SeenValues } from './audit-filters.js';
import { AuditItem, actorLabel } from './audit-item.js';

const PAGE_SIZE = 50;
const NO_FILTER: AuditFilterValues = { appId: ALL, envId: ALL, actor: ALL, action: ALL };

/** The request of the filters: the app picks the route, the rest are query filters the server applies before paging. */
function auditRequest(filters: AuditFilterValues): { path: string; query: ListAuditQuery } {
  const query: ListAuditQuery = { limit: PAGE_SIZE };
  if (filters.envId) query.envId = filters.envId;
  if (filters.actor) query.actor = filters.actor;
  if (filters.action) query.action = filters.action;
  return { path: filters.appId ? `apps/${seg(filters.appId)}/audit` : 'audit', query };
}

/**
 * The organisation's audit, newest first: who changed what, with readable diffs. Every filter is applied by the
 * server, so a filtered page is full and "Load older entries" continues the filtered history to its first entry.
 * The filters offer what the loaded pages have shown so far (kept when a filter narrows the list).
 */
export default function AuditPage() {
  const { api } = useSession();
  const { apps, app, envs } = useWorkspace();
  const [filters, setFilters] = useState(NO_FILTER);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // An entry of each actor seen, labelled at render time (key names arrive on their own).
  const [seen, setSeen] = useState<Omit<SeenValues, 'actors'> & { actors: ReadonlyMap<string, AuditEntry> }>({
    actors: new Map(),
    actions: new Set(),
    envIds: new Set(),
  });
  const more = useAction();
  const request = auditRequest(filters);
  const requestKey = JSON.stringify(request);
  const currentKey = useRef(requestKey);
  currentKey.current = requestKey;
  const first = useResource(() => api.get<ListAudit>(request.path, request.query), [api, requestKey]);
  const flags = useResource(() => api.get<ListFlags>(`apps/${seg(app.id)}/flags`, { pageSize: 1000 }).then((r) => r.data), [api, app.id]);
  const keys = useResource(() => api.get<ListKeys>('keys').then((r) => r.data), [api]);
  const segments = useResource(() => api.get<ListSegments>(`apps/${seg(app.id)}/segments`).then((r) => r.data), [api, app.id]);

  const keyName = (id: string) => keys.data?.find((k) => k.id === id)?.name;
  const who = (e: AuditEntry) => actorLabel(e, keyName);

  const show = (page: ListAudit, append: boolean) => {
    setEntries((all) => (append ? [...all, ...page.data] : page.data));
    setCursor(page.nextCursor);
    setSeen((s) => ({
      actors: new Map([...s.actors, ...page.data.map((e) => [e.actor, e] as const)]),
      actions: new Set([...s.actions, ...page.data.map((e) => e.action)]),
      envIds: new Set([...s.envIds, ...page.data.flatMap((e) => (e.envId ? [e.envId] : []))]),
    }));
  };

  useEffect(() => {
    if (first.data) show(first.data, false);
  }, [first.data]);

  const loadOlder = async () => {
    if (!cursor) return;
    const asked = requestKey;
    const page = await more.run(() => api.get<ListAudit>(request.path, { ...request.query, before: cursor }));
    // A page asked for filters that have changed since belongs to another list.
    if (page && currentKey.current === asked) show(page, true);
  };

  const envName = (id: string) => envs.find((e) => e.id === id)?.name ?? id;
  const appName = (id: string) => apps.find((a) => a.id === id)?.name ?? id;
  const flagKey = (id: string) => flags.data?.find((f) => f.id === id)?.key;
  const segmentName = (id: string) => segments.data?.find((s) => s.id === id)?.name ?? id;
  const narrowed = Boolean(filters.envId || filters.actor || filters.action);
  const stale = first.loading && entries.length > 0;

  return (
    <Page title="Audit">
      <AuditFilters
        values={filters}
        onChange={setFilters}
        apps={apps.map((a) => ({ value: a.id, label: a.name }))}
        envName={envName}
        envIds={envs.map((e) => e.id)}
        seen={{ ...seen, actors: new Map([...seen.actors].map(([id, e]) => [id, who(e)])) }}
      />
      <ApiErrorBox error={first.error ?? more.error} />
      {first.loading && !entries.length ? (
        <Loading label="Loading the audit" />
      ) : !entries.length ? (
        <Empty>{narrowed ? 'No entry matches these filters.' : 'Nothing has been changed yet.'}</Empty>
      ) : (
        <ol class="audit-list" aria-busy={stale}>
          {entries.map((e) => (
            <AuditItem key={e.id} entry={e} actor={who(e)} flagKey={flagKey} envName={envName} appName={appName} segmentName={segmentName} />
          ))}
        </ol>
      )}
      <p class="muted" role="status">
        {`${entries.length} ${narrowed ? 'matching ' : ''}${entries.length === 1 ? 'entry' : 'entries'} loaded.`}
        {cursor || !entries.length ? '' : ' This is the oldest entry.'}
      </p>
      {cursor ? (
        <button type="button" onClick={() => void loadOlder()} disabled={more.busy || first.loading}>
          Load older entries
        </button>
      ) : null}
    </Page>
  );
}
