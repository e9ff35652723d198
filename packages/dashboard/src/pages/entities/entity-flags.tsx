import { Link } from 'wouter-preact';
import type { EntityFlag, EntityFlagsResponse, UpdateEntityFlagsBody } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import type { EntityKind } from './entity-kind.js';

const when = (at: string | null) => (at ? new Date(at).toLocaleString() : '—');

/**
 * Every flag as this user or company sees it (rows 8 / 10), with a switch per flag that adds or removes it as a
 * specific target (rows 9 / 11); the answer of the switch replaces the table, so it shows the stored state.
 */
export function EntityFlags({ kind, id, base }: { kind: EntityKind; id: string; base: string }) {
  const { api, can } = useSession();
  const { env } = useWorkspace();
  const toast = useToast();
  const flags = useResource(() => api.get<EntityFlagsResponse>(`${base}/flags`), [api, base]);
  const target = useAction();
  const writable = can('write:flag:targeting', env.id);

  const toggle = async (flag: EntityFlag) => {
    const on = flag.specificTargetValue !== true;
    const body: UpdateEntityFlagsBody = { updates: [{ flagKey: flag.key, specificTargetValue: on ? true : null }] };
    const answer = await target.run(() => api.send<EntityFlagsResponse & { flagStateVersion: number }>('PATCH', `${base}/flags`, body));
    if (answer) {
      flags.set(answer);
      toast(`${on ? 'Targeted' : 'Stopped targeting'} ${kind.noun} ${id} ${on ? 'with' : 'in'} ${flag.key} in ${env.name} (flag state version ${answer.flagStateVersion})`);
    }
  };

  return (
    <section aria-labelledby="entity-flags-title">
      <h2 id="entity-flags-title">Flags in {env.name}</h2>
      <ApiErrorBox error={flags.error ?? target.error} />
      {flags.loading && !flags.data ? (
        <Loading label="Loading flags" />
      ) : (
        <Table
          caption={`Flags of ${kind.noun} ${id} in ${env.name}`}
          rowKey={(f) => f.id}
          rows={flags.data?.data ?? []}
          empty="This app has no flag yet."
          columns={[
            { key: 'key', label: 'Flag', render: (f) => <Link href={`/flags/${encodeURIComponent(f.key)}`}>{f.key}</Link> },
            { key: 'name', label: 'Name', render: (f) => f.name },
            { key: 'value', label: 'Enabled', render: (f) => (f.value ? <span class="badge on">on</span> : <span class="badge off">off</span>) },
            {
              key: 'target',
              label: 'Specific target',
              render: (f) => {
                const on = f.specificTargetValue === true;
                return (
                  <span class="actions">
                    {on ? <span class="badge targeted">targeted</span> : null}
                    {writable ? (
                      <button
                        type="button"
                        class="small"
                        disabled={target.busy}
                        onClick={() => void toggle(f)}
                        aria-label={`${on ? 'Stop targeting' : 'Target'} ${kind.noun} ${id} ${on ? 'in' : 'with'} ${f.key}`}
                      >
                        {on ? 'Remove' : 'Target'}
                      </button>
                    ) : null}
                  </span>
                );
              },
            },
            { key: 'exposures', label: 'Exposures', render: (f) => f.exposureCount },
            { key: 'tracks', label: 'Tracks', render: (f) => f.trackCount },
            { key: 'check', label: 'Last check', render: (f) => when(f.lastCheckAt) },
          ]}
        />
      )}
    </section>
  );
}
