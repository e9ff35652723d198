import '../resources.css';
import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { CreatedKey, ListKeys, ManagementKey } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { CopyButton } from '../../components/copy-button.js';
import { Confirm } from '../../components/dialog.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { KeyForm } from './key-form.js';

const when = (at: string | null) => (at ? new Date(at).toLocaleString() : '—');

/** Management keys of the organisation: for scripts, CI and the CLI. The secret is shown once, at creation. */
export default function KeysPage() {
  const { api, can } = useSession();
  const toast = useToast();
  const keys = useResource(() => api.get<ListKeys>('keys').then((r) => r.data), [api]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ManagementKey | null>(null);
  const revoke = useAction();
  const admin = can('admin');

  const confirmRevoke = async () => {
    if (!revoking) return;
    const done = await revoke.run(() => api.send<ManagementKey>('DELETE', `keys/${seg(revoking.id)}`));
    setRevoking(null);
    if (done) {
      toast(`Revoked key ${done.name}`);
      keys.reload();
    }
  };

  return (
    <Page
      title="Keys"
      actions={
        admin ? (
          <button type="button" class="primary" onClick={() => { setCreated(null); setCreating(true); }}>
            New management key
          </button>
        ) : null
      }
    >
      <p class="muted">Management keys let scripts, CI and the CLI call the management API. Give each the fewest scopes it needs.</p>
      {created ? (
        <div class="once" role="status">
          <p>
            <strong>Key “{created.key.name}” created.</strong> Copy its secret now: it is stored hashed and will not be shown again.
          </p>
          <div class="key-row">
            <code class="secret" data-key="management">{created.secret}</code>
            <CopyButton text={created.secret} what={`secret of key ${created.key.name}`} />
            <button type="button" class="small" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <ApiErrorBox error={keys.error ?? revoke.error} />
      {keys.loading && !keys.data ? (
        <Loading label="Loading keys" />
      ) : (
        <Table
          caption="Management keys"
          rowKey={(k) => k.id}
          rows={keys.data ?? []}
          empty="No management key."
          columns={[
            { key: 'name', label: 'Name', render: (k) => <strong>{k.name}</strong> },
            { key: 'prefix', label: 'Starts with', render: (k) => <code>{k.prefix}…</code> },
            { key: 'scopes', label: 'Scopes', render: (k) => k.scopes.map((s) => <span key={s} class="badge">{s}</span>) },
            { key: 'created', label: 'Created', render: (k) => when(k.createdAt) },
            { key: 'used', label: 'Last used', render: (k) => when(k.lastUsedAt) },
            {
              key: 'state',
              label: 'State',
              render: (k) =>
                k.revokedAt ? (
                  <span class="badge off">revoked {when(k.revokedAt)}</span>
                ) : admin ? (
                  <button type="button" class="small" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </button>
                ) : (
                  <span class="badge on">active</span>
                ),
            },
          ]}
        />
      )}
      {creating ? (
        <KeyForm
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreating(false);
            setCreated(k);
            keys.reload();
          }}
        />
      ) : null}
      <Confirm
        open={revoking !== null}
        title={`Revoke key ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke key"
        danger
        busy={revoke.busy}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>Every request made with this key is refused from now on. This cannot be undone.</p>
      </Confirm>
    </Page>
  );
}
