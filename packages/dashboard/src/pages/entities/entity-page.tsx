import '../resources.css';
import { Link } from 'wouter-preact';
import { ApiError, seg } from '../../api/client.js';
import type { Entity } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { Empty, Loading } from '../../components/states.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { EntityAttributes } from './entity-attributes.js';
import { EntityFlags } from './entity-flags.js';
import { EntitySearch } from './entity-search.js';
import type { EntityKind } from './entity-kind.js';

/**
 * Users or companies of the current environment: search them by id or name, open one to see its attributes and
 * every flag as it sees them, and add or remove it as a specific target of a flag.
 */
export function EntityPage({ kind, id }: { kind: EntityKind; id: string | undefined }) {
  const { api } = useSession();
  const { app, env } = useWorkspace();
  const base = id ? `apps/${seg(app.id)}/envs/${seg(env.id)}/${kind.segment}/${seg(id)}` : '';
  const entity = useResource(() => (base ? api.get<Entity>(base) : Promise.resolve(undefined)), [api, base]);
  const notStored = entity.error instanceof ApiError && entity.error.status === 404;

  return (
    <Page title={id ? `${kind.title}: ${entity.data?.name ?? id}` : kind.title}>
      {id ? (
        <p>
          <Link href={kind.route}>All {kind.title.toLowerCase()}</Link>
        </p>
      ) : null}
      {!id ? (
        <EntitySearch kind={kind} />
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
