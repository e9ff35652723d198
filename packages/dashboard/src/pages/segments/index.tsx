import '../resources.css';
import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { ListSegments, Segment } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { describeFilter } from '../../components/rule-builder/index.js';
import { Confirm } from '../../components/dialog.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { SegmentEditor } from './segment-editor.js';

/**
 * Segments: named filters that rules reuse ("Beta testers", "EU companies"). Edited with the flag page's rule
 * builder; one in use by a rule cannot be deleted, and the refusal says which flags use it where.
 */
export default function SegmentsPage() {
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const base = `apps/${seg(app.id)}/segments`;
  const segments = useResource(() => api.get<ListSegments>(base).then((r) => r.data), [api, base]);
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const remove = useAction();
  const admin = can('admin');

  const confirmDelete = async () => {
    if (!deleting) return;
    const done = await remove.run(() => api.send('DELETE', `${base}/${seg(deleting.id)}`));
    if (done) {
      toast(`Deleted segment ${deleting.name}`);
      setDeleting(null);
      segments.reload();
    }
  };

  return (
    <Page
      title="Segments"
      actions={
        admin && editing === null ? (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New segment
          </button>
        ) : null
      }
    >
      <p class="muted">A segment is a named filter. A rule that uses a segment matches when the segment matches and the rule's own filter does.</p>
      {editing ? (
        <SegmentEditor
          key={editing === 'new' ? 'new' : editing.id}
          segment={editing === 'new' ? undefined : editing}
          base={base}
          readOnly={!admin}
          onClose={() => setEditing(null)}
          onSaved={(s) => {
            toast(`Saved segment ${s.name}`);
            setEditing(null);
            segments.reload();
          }}
        />
      ) : null}
      <ApiErrorBox error={segments.error} />
      {segments.loading && !segments.data ? (
        <Loading label="Loading segments" />
      ) : (
        <Table
          caption="Segments"
          rowKey={(s) => s.id}
          rows={segments.data ?? []}
          empty="No segment yet."
          columns={[
            { key: 'name', label: 'Name', render: (s) => <strong>{s.name}</strong> },
            { key: 'filter', label: 'Matches', render: (s) => (s.type === 'all' ? 'everyone' : describeFilter(s.filter)) },
            {
              key: 'actions',
              label: 'Actions',
              render: (s) =>
                s.type === 'all' ? (
                  <span class="muted">built in</span>
                ) : (
                  <div class="actions">
                    <button type="button" class="small" onClick={() => setEditing(s)} aria-label={`${admin ? 'Edit' : 'View'} ${s.name}`}>
                      {admin ? 'Edit' : 'View'}
                    </button>
                    {admin ? (
                      <button type="button" class="small" onClick={() => { remove.clear(); setDeleting(s); }} aria-label={`Delete ${s.name}`}>
                        Delete
                      </button>
                    ) : null}
                  </div>
                ),
            },
          ]}
        />
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete segment ${deleting?.name ?? ''}?`}
        confirmLabel="Delete segment"
        danger
        busy={remove.busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>Flags keep working: a segment still used by a rule cannot be deleted.</p>
        <ApiErrorBox error={remove.error} />
      </Confirm>
    </Page>
  );
}
