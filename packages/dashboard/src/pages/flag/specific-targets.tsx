import { Link } from 'wouter-preact';
import { ApiError, seg } from '../../api/client.js';
import { useCallback } from 'preact/hooks';
import type { EnvironmentHeader, FlagHeader, ListEntitiesResponse, SpecificTargets, UpdateEntityFlagsBody } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { EntityCombobox } from '../../components/entity-combobox.js';
import { Loading } from '../../components/states.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';

type Kind = 'users' | 'companies';
const NOUN: Record<Kind, string> = { users: 'user', companies: 'company' };

/**
 * Users and companies that get the flag whatever the rules say (rows 9/11). Only stored ones can be added, picked
 * from a search of the stored ones; an id typed as is is looked up first, so a typo is reported, not targeted.
 */
export function SpecificTargetsEditor({ flag, env }: { flag: FlagHeader; env: EnvironmentHeader }) {
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const targets = useResource(
    () => api.get<SpecificTargets>(`apps/${seg(app.id)}/flags/${seg(flag.key)}/specific-targets/${seg(env.id)}`),
    [api, app.id, flag.key, env.id],
  );
  if (targets.error) return <ApiErrorBox error={targets.error} />;
  if (!targets.data) return <Loading label="Loading specific targets" />;
  const writable = can('write:flag:targeting', env.id) && !flag.archived;
  return (
    <div class="two-columns">
      {(['users', 'companies'] as const).map((kind) => (
        <TargetList key={kind} kind={kind} ids={targets.data![kind]} flag={flag} env={env} writable={writable} onChanged={targets.reload} />
      ))}
    </div>
  );
}

function TargetList({ kind, ids, flag, env, writable, onChanged }: { kind: Kind; ids: string[]; flag: FlagHeader; env: EnvironmentHeader; writable: boolean; onChanged: () => void }) {
  const { api } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const action = useAction();
  const base = (entityId: string) => `apps/${seg(app.id)}/envs/${seg(env.id)}/${kind}/${seg(entityId)}`;
  const noun = NOUN[kind];
  const listPath = `apps/${seg(app.id)}/envs/${seg(env.id)}/${kind}`;
  const search = useCallback((text: string, limit: number) => api.get<ListEntitiesResponse>(listPath, { search: text, limit }).then((r) => r.data), [api, listPath]);

  const patch = (entityId: string, on: boolean) => {
    const body: UpdateEntityFlagsBody = { updates: [{ flagKey: flag.key, specificTargetValue: on ? true : null }] };
    return api.send('PATCH', `${base(entityId)}/flags`, body);
  };
  const add = async (entityId: string) => {
    if (action.busy) return;
    const done = await action.run(async () => {
      try {
        await api.get(base(entityId));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          throw new ApiError(400, { error: { code: 'not_found', message: `No stored ${noun} has the id ${entityId}.` }, issues: { id: [`no stored ${noun} with this id in ${env.name}`] } }, '');
        }
        throw error;
      }
      return patch(entityId, true);
    });
    if (done) {
      toast(`${flag.name} is on for ${noun} ${entityId} in ${env.name}.`);
      onChanged();
    }
  };
  const remove = async (entityId: string) => {
    if (await action.run(() => patch(entityId, false))) {
      toast(`Removed ${noun} ${entityId} from ${flag.name} in ${env.name}.`);
      onChanged();
    }
  };
  const title = kind === 'users' ? 'Users' : 'Companies';
  return (
    <div>
      <h3>{title}</h3>
      {ids.length ? (
        <ul class="target-list">
          {ids.map((entityId) => (
            <li key={entityId}>
              <Link href={`/${kind}/${encodeURIComponent(entityId)}`}>{entityId}</Link>
              {writable ? (
                <button type="button" class="small" aria-label={`Remove ${noun} ${entityId}`} disabled={action.busy} onClick={() => remove(entityId)}>
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No {kind} targeted directly.</p>
      )}
      {writable ? (
        <EntityCombobox
          label={`Add a stored ${noun}`}
          search={search}
          exclude={ids}
          error={issuesAt(action.error, 'id')}
          onPick={add}
        />
      ) : null}
      <ApiErrorBox error={action.error} paths={['id']} />
    </div>
  );
}
