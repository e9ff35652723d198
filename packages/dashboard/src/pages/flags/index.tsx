import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { seg } from '../../api/client.js';
import type { FlagHeader, FlagSortBy, FlagStatuses, ListFlags, ListMembers, ListStages } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../components/use-resource.js';
import { ago } from '../../lib/format.js';
import { staleness } from '../../lib/staleness.js';
import { envLabel, useWorkspace } from '../../workspace.js';
import { CreateFlagDialog } from './create-flag-dialog.js';
import { FlagFilters, NO_FILTERS, queryOf, type Filters } from './flag-filters.js';
import { StatusToggle, type Status } from './status-toggle.js';
import './flags.css';

const PAGE_SIZE = 50;

/** The app's flags: search, filters, sort, paging, status and an on/off switch per environment, and "New flag". */
export default function FlagsPage() {
  const { api, can } = useSession();
  const { app, envs } = useWorkspace();
  const [, navigate] = useLocation();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<{ key: FlagSortBy; order: 'asc' | 'desc' }>({ key: 'key', order: 'asc' });
  const [pageIndex, setPageIndex] = useState(0);
  const [creating, setCreating] = useState(false);
  const appPath = `apps/${seg(app.id)}`;

  const flags = useResource(
    () => api.get<ListFlags>(`${appPath}/flags`, { ...queryOf(filters), sortBy: sort.key, sortOrder: sort.order, pageIndex, pageSize: PAGE_SIZE }),
    [api, app.id, filters, sort, pageIndex],
  );
  const statuses = useResource(() => api.get<FlagStatuses>(`${appPath}/flag-statuses`), [api, app.id]);
  const stages = useResource(() => api.get<ListStages>(`${appPath}/stages`).then((r) => r.data), [api, app.id]);
  const members = useResource(() => api.get<ListMembers>('members').then((r) => r.data), [api]);
  const statusOf = (envId: string, key: string): Status => statuses.data?.data.find((d) => d.envId === envId)?.flags[key] ?? 'off';

  // The stale filter and sort are the API's: its `stale` is what the Health badge shows (lib/staleness.ts).
  const rows = flags.data?.data ?? [];

  const columns: Column<FlagHeader>[] = [
    {
      key: 'name',
      label: 'Flag',
      sortable: true,
      render: (f) => (
        <div>
          <Link href={`/flags/${encodeURIComponent(f.key)}`}>{f.name}</Link>
          <div>
            <code class="muted">{f.key}</code>
          </div>
        </div>
      ),
    },
    { key: 'stage', label: 'Stage', sortable: true, render: (f) => (f.stage ? <span class="badge">{f.stage.name}</span> : <span class="muted">—</span>) },
    { key: 'owner', label: 'Owner', sortable: true, render: (f) => f.owner?.name ?? <span class="muted">—</span> },
    ...envs.map<Column<FlagHeader>>((env) => ({
      key: `env-${env.id}`,
      label: envLabel(env),
      render: (f) => <StatusToggle flag={f} env={env} status={statusOf(env.id, f.key)} onChanged={statuses.reload} />,
    })),
    { key: 'lastCheck', label: 'Last check', sortable: true, render: (f) => <span title={f.lastCheckAt}>{ago(f.lastCheckAt)}</span> },
    {
      key: 'stale',
      label: 'Health',
      sortable: true,
      render: (f) => {
        const s = staleness(f);
        return (
          <span class={`badge ${s.label === 'stale' ? 'stale' : ''}`} title={s.reason}>
            {s.label}
          </span>
        );
      },
    },
  ];

  const total = flags.data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Page
      title="Flags"
      actions={
        can('write:flags') ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New flag
          </button>
        ) : null
      }
    >
      <FlagFilters
        value={filters}
        stages={stages.data ?? []}
        members={members.data ?? []}
        onChange={(f) => {
          setFilters(f);
          setPageIndex(0);
        }}
      />
      <ApiErrorBox error={flags.error ?? statuses.error} />
      {flags.loading && !flags.data ? (
        <Loading label="Loading flags" />
      ) : (
        <Table
          caption="Flags"
          columns={columns}
          rows={rows}
          rowKey={(f) => f.id}
          sort={sort}
          onSort={(key) => setSort((s) => ({ key: key as FlagSortBy, order: s.key === key && s.order === 'asc' ? 'desc' : 'asc' }))}
          empty={filters === NO_FILTERS ? 'No flags yet. Create the first one with “New flag”.' : 'No flag matches these filters.'}
        />
      )}
      {total > PAGE_SIZE ? (
        <nav class="pager" aria-label="Pages of flags">
          <button type="button" disabled={pageIndex === 0} onClick={() => setPageIndex(pageIndex - 1)}>
            Previous
          </button>
          <span>
            Page {pageIndex + 1} of {pages} ({total} flags)
          </span>
          <button type="button" disabled={pageIndex + 1 >= pages} onClick={() => setPageIndex(pageIndex + 1)}>
            Next
          </button>
        </nav>
      ) : null}
      {creating ? (
        <CreateFlagDialog
          app={app}
          stages={stages.data ?? []}
          open
          onClose={() => setCreating(false)}
          onCreated={(key) => navigate(`/flags/${encodeURIComponent(key)}`)}
        />
      ) : null}
    </Page>
  );
}
