import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { seg } from '../../api/client.js';
import type { Entity, ListEntitiesResponse } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { TextField } from '../../components/field.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import type { EntityKind } from './entity-kind.js';

/** The stored users or companies of the environment, searched by id prefix or name, 50 at a time. */
export function EntitySearch({ kind }: { kind: EntityKind }) {
  const { api } = useSession();
  const { app, env } = useWorkspace();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [more, setMore] = useState<{ rows: Entity[]; next: string | null } | null>(null);
  const loadMore = useAction();
  const path = `apps/${seg(app.id)}/envs/${seg(env.id)}/${kind.segment}`;
  const first = useResource(() => api.get<ListEntitiesResponse>(path, { search }), [api, path, search]);
  const rows = [...(first.data?.data ?? []), ...(more?.rows ?? [])];
  const next = more ? more.next : (first.data?.nextCursor ?? null);

  const older = async () => {
    if (!next) return;
    const page = await loadMore.run(() => api.get<ListEntitiesResponse>(path, { search, after: next }));
    if (page) setMore({ rows: [...(more?.rows ?? []), ...page.data], next: page.nextCursor });
  };

  return (
    <>
      <form
        class="filters"
        role="search"
        aria-label={`Search ${kind.title.toLowerCase()}`}
        onSubmit={(e) => {
          e.preventDefault();
          setMore(null);
          setSearch(text.trim());
        }}
      >
        <TextField label={`Search ${kind.title.toLowerCase()} by id or name`} value={text} onInput={setText} hint={`The start of the id your app sends, or part of the name, in ${env.name}.`} />
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      <ApiErrorBox error={first.error ?? loadMore.error} />
      {first.loading && !first.data ? (
        <Loading label={`Searching ${kind.title.toLowerCase()}`} />
      ) : (
        <Table
          caption={`${kind.title} in ${env.name}${search ? ` matching ${search}` : ''}`}
          rowKey={(e) => e.id}
          rows={rows}
          empty={
            search
              ? `No ${kind.noun} in ${env.name} has an id starting with, or a name containing, “${search}”.`
              : `No ${kind.noun} is stored in ${env.name} yet. ${kind.title} are stored when your app sends them (${kind.storedBy}).`
          }
          columns={[
            { key: 'id', label: 'Id', render: (e) => <Link href={`${kind.route}/${encodeURIComponent(e.id)}`}>{e.id}</Link> },
            { key: 'name', label: 'Name', render: (e) => e.name ?? <span class="muted">none</span> },
            { key: 'attributes', label: 'Attributes', render: (e) => Object.keys(e.attributes).join(', ') || <span class="muted">none</span> },
            { key: 'updated', label: 'Last updated', render: (e) => new Date(e.updatedAt).toLocaleString() },
          ]}
        />
      )}
      {next ? (
        <button type="button" onClick={() => void older()} disabled={loadMore.busy}>
          Show more
        </button>
      ) : null}
    </>
  );
}
