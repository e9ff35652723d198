import '../resources.css';
import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { ListStages, StageHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Confirm } from '../../components/dialog.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { moved, useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { StageForm } from './stage-form.js';

/** Stages: the lifecycle labels of flags (create, rename, colour, reorder, delete when no flag is on it). */
export default function StagesPage() {
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const base = `apps/${seg(app.id)}/stages`;
  const stages = useResource(() => api.get<ListStages>(base).then((r) => [...r.data].sort((a, b) => a.order - b.order)), [api, base]);
  const [editing, setEditing] = useState<StageHeader | 'new' | null>(null);
  const [deleting, setDeleting] = useState<StageHeader | null>(null);
  const rowAction = useAction();
  const admin = can('admin');

  /**
   * Stage orders are free integers (the API does not renumber them, and two may tie): a move renumbers the list
   * 0..n-1 in its new sequence, patching only the stages whose number changes.
   */
  const move = async (stage: StageHeader, by: number) => {
    const list = stages.data ?? [];
    const next = moved(list, list.indexOf(stage), by);
    const done = await rowAction.run(async () => {
      for (const [order, s] of next.entries()) if (s.order !== order) await api.send('PATCH', `${base}/${seg(s.id)}`, { order });
      return true;
    });
    if (done) toast(`Moved ${stage.name} ${by < 0 ? 'up' : 'down'}`);
    stages.reload();
  };
  const remove = async () => {
    if (!deleting) return;
    const done = await rowAction.run(() => api.send('DELETE', `${base}/${seg(deleting.id)}`));
    setDeleting(null);
    if (done) {
      toast(`Deleted stage ${deleting.name}`);
      stages.reload();
    }
  };

  return (
    <Page
      title="Stages"
      actions={
        admin ? (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New stage
          </button>
        ) : null
      }
    >
      <p class="muted">Stages label where a flag is in its life (for example In development, Beta, General availability). Flags are filtered and sorted by them.</p>
      <ApiErrorBox error={stages.error ?? rowAction.error} />
      {stages.loading && !stages.data ? (
        <Loading label="Loading stages" />
      ) : (
        <Table
          caption="Stages, in order"
          rowKey={(s) => s.id}
          rows={stages.data ?? []}
          empty="No stage yet."
          columns={[
            { key: 'order', label: 'Order', render: (s) => s.order },
            {
              key: 'name',
              label: 'Name',
              render: (s) => (
                <span class="stage-name">
                  <span class="swatch" aria-hidden="true" style={{ background: s.color }} />
                  {s.name}
                </span>
              ),
            },
            { key: 'color', label: 'Colour', render: (s) => <code>{s.color}</code> },
            {
              key: 'actions',
              label: 'Actions',
              render: (s) =>
                admin ? (
                  <div class="actions">
                    <button type="button" class="small" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                      Edit
                    </button>
                    <button type="button" class="small" disabled={rowAction.busy || stages.data?.[0] === s} onClick={() => void move(s, -1)} aria-label={`Move ${s.name} up`}>
                      ↑
                    </button>
                    <button type="button" class="small" disabled={rowAction.busy || stages.data?.at(-1) === s} onClick={() => void move(s, 1)} aria-label={`Move ${s.name} down`}>
                      ↓
                    </button>
                    <button type="button" class="small" onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                      Delete
                    </button>
                  </div>
                ) : (
                  <span class="muted">read-only</span>
                ),
            },
          ]}
        />
      )}
      {editing ? (
        <StageForm
          stage={editing === 'new' ? undefined : editing}
          base={base}
          onClose={() => setEditing(null)}
          onSaved={(s) => {
            toast(`Saved stage ${s.name}`);
            setEditing(null);
            stages.reload();
          }}
        />
      ) : null}
      <Confirm
        open={deleting !== null}
        title={`Delete stage ${deleting?.name ?? ''}?`}
        confirmLabel="Delete stage"
        danger
        busy={rowAction.busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>Flags on this stage must be moved to another stage first; the server refuses otherwise.</p>
        <p class="field-error">{issuesAt(rowAction.error, 'stageId').join('; ')}</p>
      </Confirm>
    </Page>
  );
}
