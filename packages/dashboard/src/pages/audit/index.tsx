import '../resources.css';
import { useEffect, useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { AuditEntry, ListAudit, ListFlags, ListKeys, ListSegments } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { SelectField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { Empty, Loading } from '../../components/states.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { AuditItem, actorLabel } from './audit-item.js';

const PAGE_SIZE = 50;
const ALL = '';

/** Distinct values of the loaded entries, for a filter's options. */
const distinct = (entries: AuditEntry[], pick: (e: AuditEntry) => string | null) =>
  [...new Set(entries.map(pick).filter((v): v is string => v !== null))].sort();

/**
 * The organisation's audit, newest first: who changed what, with readable diffs. The app filter asks the server
 * (`/apps/{appId}/audit`); environment, person and action narrow the pages loaded so far, and "Load older" pages on.
 */
export default function AuditPage() {
  const { api } = useSession();
  const { apps, app, envs } = useWorkspace();
  const [appFilter, setAppFilter] = useState(ALL);
  const [envFilter, setEnvFilter] = useState(ALL);
  const [actorFilter, setActorFilter] = useState(ALL);
  const [actionFilter, setActionFilter] = useState(ALL);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const more = useAction();
  const path = appFilter ? `apps/${seg(appFilter)}/audit` : 'audit';
  const first = useResource(() => api.get<ListAudit>(path, { limit: PAGE_SIZE }), [api, path]);
  const flags = useResource(() => api.get<ListFlags>(`apps/${seg(app.id)}/flags`, { pageSize: 1000 }).then((r) => r.data), [api, app.id]);
  const keys = useResource(() => api.get<ListKeys>('keys').then((r) => r.data), [api]);
  const segments = useResource(() => api.get<ListSegments>(`apps/${seg(app.id)}/segments`).then((r) => r.data), [api, app.id]);

  useEffect(() => {
    if (!first.data) return;
    setEntries(first.data.data);
    setCursor(first.data.nextCursor);
  }, [first.data]);

  const loadOlder = async () => {
    if (!cursor) return;
    const page = await more.run(() => api.get<ListAudit>(path, { limit: PAGE_SIZE, before: cursor }));
    if (page) {
      setEntries((all) => [...all, ...page.data]);
      setCursor(page.nextCursor);
    }
  };

  const envName = (id: string) => envs.find((e) => e.id === id)?.name ?? id;
  const appName = (id: string) => apps.find((a) => a.id === id)?.name ?? id;
  const flagKey = (id: string) => flags.data?.find((f) => f.id === id)?.key;
  const keyName = (id: string) => keys.data?.find((k) => k.id === id)?.name;
  const who = (e: AuditEntry) => actorLabel(e, keyName);
  const segmentName = (id: string) => segments.data?.find((s) => s.id === id)?.name ?? id;
  const shown = entries.filter(
    (e) =>
      (!envFilter || e.envId === envFilter) && (!actorFilter || who(e) === actorFilter) && (!actionFilter || e.action === actionFilter),
  );
  const narrowed = envFilter || actorFilter || actionFilter;

  return (
    <Page title="Audit">
      <form class="filters" aria-label="Filter the audit" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="App" value={appFilter} onChange={setAppFilter} options={[{ value: ALL, label: 'All apps' }, ...apps.map((a) => ({ value: a.id, label: a.name }))]} />
        <SelectField
          label="Environment"
          value={envFilter}
          onChange={setEnvFilter}
          options={[{ value: ALL, label: 'All environments' }, ...distinct(entries, (e) => e.envId).map((id) => ({ value: id, label: envName(id) }))]}
        />
        <SelectField label="Person or key" value={actorFilter} onChange={setActorFilter} options={[{ value: ALL, label: 'Everyone' }, ...distinct(entries, who).map((a) => ({ value: a, label: a }))]} />
        <SelectField label="Action" value={actionFilter} onChange={setActionFilter} options={[{ value: ALL, label: 'All actions' }, ...distinct(entries, (e) => e.action).map((a) => ({ value: a, label: a }))]} />
      </form>
      <ApiErrorBox error={first.error ?? more.error} />
      {first.loading && !entries.length ? (
        <Loading label="Loading the audit" />
      ) : !shown.length ? (
        <Empty>{narrowed ? 'No entry of the loaded pages matches these filters. Load older entries, or widen the filters.' : 'Nothing has been changed yet.'}</Empty>
      ) : (
        <ol class="audit-list">
          {shown.map((e) => (
            <AuditItem key={e.id} entry={e} actor={who(e)} flagKey={flagKey} envName={envName} appName={appName} segmentName={segmentName} />
          ))}
        </ol>
      )}
      <p class="muted" role="status">
        {narrowed ? `${shown.length} of the ${entries.length} loaded entries match.` : `${entries.length} entries loaded.`}
        {cursor ? '' : ' This is the oldest entry.'}
      </p>
      {cursor ? (
        <button type="button" onClick={() => void loadOlder()} disabled={more.busy}>
          Load older entries
        </button>
      ) : null}
    </Page>
  );
}
