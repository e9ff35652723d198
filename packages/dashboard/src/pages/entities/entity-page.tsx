import '../resources.css';
import { useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';
import { ApiError, seg } from '../../api/client.js';
import type { Entity } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { TextField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { Empty, Loading } from '../../components/states.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { EntityAttributes } from './entity-attributes.js';
import { EntityFlags } from './entity-flags.js';
import type { EntityKind } from './entity-kind.js';

/**
 * Users or companies of the current environment: look one up by its id (the id your app sends), see its
 * attributes and every flag as it sees them, and add or remove it as a specific target of a flag.
 */
export function EntityPage({ kind, id }: { kind: EntityKind; id: string | undefined }) {
  const { api } = useSession();
  const { app, env } = useWorkspace();
  const [, navigate] = useLocation();
  const [query, setQuery] = useState(id ?? '');
  const base = id ? `apps/${seg(app.id)}/envs/${seg(env.id)}/${kind.segment}/${seg(id)}` : '';
  const entity = useResource(() => (base ? api.get<Entity>(base) : Promise.resolve(undefined)), [api, base]);
  const notStored = entity.error instanceof ApiError && entity.error.status === 404;

  return (
    <Page title={id ? `${kind.title}: ${entity.data?.name ?? id}` : kind.title}>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) navigate(`${kind.route}/${encodeURIComponent(query.trim())}`);
        }}
      >
        <TextField label={`Find a ${kind.noun} by id`} value={query} onInput={setQuery} hint={`The id your app sends for the ${kind.noun}, in ${env.name}.`} />
        <button type="submit" class="primary">
          Find
        </button>
      </form>
      {!id ? (
        <Empty>
          Enter the id of a {kind.noun} to see its attributes and its flags in {env.name}. {kind.title} are stored when your app sends them ({kind.storedBy}).
        </Empty>
      ) : notStored ? (
        <Empty>
          No {kind.noun} with id <code>{id}</code> is stored in {env.name}. It is stored when your app sends it ({kind.storedBy}) or when a flag targets it from the flag's page.
        </Empty>
      ) : entity.error ? (
        <ApiErrorBox error={entity.error} />
      ) : !entity.data ? (
        <Loading label={`Loading ${kind.noun} ${id}`} />
      ) : (
        <>
          <EntityAttributes kind={kind} entity={entity.data} base={base} onSaved={entity.set} />
          <EntityFlags kind={kind} id={entity.data.id} base={base} />
        </>
      )}
    </Page>
  );
}
