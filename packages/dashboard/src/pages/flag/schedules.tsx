import { useEffect, useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { Actor, EnvironmentHeader, FlagHeader, ListSchedules, Schedule, ScheduleResponse, UserHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Confirm } from '../../components/dialog.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';

const when = (iso: string | null) => (iso ? <time dateTime={iso}>{new Date(iso).toLocaleString()}</time> : '—');

/** What a scheduled targeting does, in a few words. */
export function summarize(s: Schedule): string {
  const t = s.targeting;
  const parts = [`${t.rules.length} rule${t.rules.length === 1 ? '' : 's'}`];
  if (t.prerequisites) parts.push(`${t.prerequisites.length} prerequisite${t.prerequisites.length === 1 ? '' : 's'}`);
  if (t.config) parts.push(`${t.config.variants.length} variant${t.config.variants.length === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** `createdBy` in words: a person (`member:<id>`) by name, the signed-in key by its name, another key by id. */
export function scheduledBy(createdBy: string, members: UserHeader[], me: Actor): string {
  if (createdBy.startsWith('member:')) {
    const id = createdBy.slice('member:'.length);
    return members.find((m) => m.id === id)?.name ?? id;
  }
  return me.type === 'key' && me.id === createdBy ? `${me.name} (management key)` : `key ${createdBy}`;
}

/**
 * A flag's scheduled changes in one environment: pending ones (cancellable by who may change the targeting), then
 * the applied, failed and cancelled ones with their reason. While one is pending the list refreshes just after its
 * time and tells the editor (`onApplied`) so it shows the applied targeting.
 */
export function Schedules(props: { flag: FlagHeader; env: EnvironmentHeader; members: UserHeader[]; generation: number; onApplied: () => void }) {
  const { flag, env, members, generation, onApplied } = props;
  const { api, can, actor } = useSession();
  const by = (s: Schedule) => scheduledBy(s.createdBy, members, actor);
  const { app } = useWorkspace();
  const toast = useToast();
  const path = `apps/${seg(app.id)}/flags/${seg(flag.key)}/schedules`;
  const list = useResource(() => api.get<ListSchedules>(path, { envId: env.id }).then((r) => r.data), [api, path, env.id, generation]);
  const [cancelling, setCancelling] = useState<Schedule | undefined>();
  const cancel = useAction();
  const canWrite = can('write:flag:targeting', env.id) && !flag.archived;
  const pending = (list.data ?? []).filter((s) => s.status === 'pending');
  const past = (list.data ?? []).filter((s) => s.status !== 'pending');
  const next = pending[0]?.at;

  useEffect(() => {
    if (!next) return undefined;
    // Instances apply due schedules within a second: look a little after that.
    const timer = setTimeout(() => list.reload(), Math.max(0, Date.parse(next) - Date.now()) + 1500);
    return () => clearTimeout(timer);
  }, [next, list.data]);
  const appliedIds = past.filter((s) => s.status === 'applied').map((s) => s.id).join();
  const [seenApplied, setSeenApplied] = useState<string | undefined>();
  useEffect(() => {
    if (list.data === undefined) return;
    if (seenApplied !== undefined && appliedIds !== seenApplied) onApplied();
    setSeenApplied(appliedIds);
  }, [appliedIds, list.data === undefined]);

  const confirmCancel = async () => {
    if (!cancelling) return;
    const done = await cancel.run(() => api.send<ScheduleResponse>('DELETE', `${path}/${seg(cancelling.id)}`));
    setCancelling(undefined);
    if (done) {
      toast(`Cancelled the change scheduled for ${new Date(done.schedule.at).toLocaleString()}.`);
      list.reload();
    }
  };

  if (list.error) return <ApiErrorBox error={list.error} />;
  if (!list.data) return <Loading label={`Loading scheduled changes in ${env.name}`} />;
  return (
    <div class="schedules">
      <h3>Scheduled changes in {env.name}</h3>
      <ApiErrorBox error={cancel.error} />
      <Table
        caption={`Pending scheduled changes of ${flag.name} in ${env.name}`}
        rows={pending}
        rowKey={(s) => s.id}
        empty={<p>No pending scheduled change.</p>}
        columns={[
          { key: 'at', label: 'Applies at', render: (s) => when(s.at) },
          { key: 'change', label: 'Change', render: summarize },
          { key: 'by', label: 'Scheduled by', render: by },
          { key: 'created', label: 'Scheduled at', render: (s) => when(s.createdAt) },
          ...(canWrite
            ? [{ key: 'cancel', label: 'Actions', render: (s: Schedule) => (
                  <button type="button" class="danger" onClick={() => setCancelling(s)} aria-label={`Cancel the change scheduled for ${new Date(s.at).toLocaleString()}`}>
                    Cancel
                  </button>
                ) }]
            : []),
        ]}
      />
      {past.length ? (
        <details class="schedule-history">
          <summary>Past scheduled changes ({past.length})</summary>
          <Table
            caption={`Past scheduled changes of ${flag.name} in ${env.name}`}
            rows={past}
            rowKey={(s) => s.id}
            empty={null}
            columns={[
              { key: 'status', label: 'Status', render: (s) => <span class={`badge schedule-${s.status}`}>{s.status}</span> },
              { key: 'at', label: 'Due at', render: (s) => when(s.at) },
              { key: 'applied', label: 'Applied at', render: (s) => when(s.appliedAt) },
              { key: 'change', label: 'Change', render: summarize },
              { key: 'by', label: 'Scheduled by', render: by },
              { key: 'reason', label: 'Reason', render: (s) => s.reason ?? (s.flagStateVersion !== null ? `State version ${s.flagStateVersion}` : '—') },
            ]}
          />
        </details>
      ) : null}
      <Confirm
        open={cancelling !== undefined}
        title="Cancel this scheduled change?"
        confirmLabel="Cancel scheduled change"
        danger
        busy={cancel.busy}
        onCancel={() => setCancelling(undefined)}
        onConfirm={confirmCancel}
      >
        <p>It will not be applied{cancelling ? ` at ${new Date(cancelling.at).toLocaleString()}` : ''}. The targeting stays as it is now.</p>
      </Confirm>
    </div>
  );
}
