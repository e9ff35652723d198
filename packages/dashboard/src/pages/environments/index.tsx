import '../resources.css';
import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { Environment, EnvironmentHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useWorkspace } from '../../workspace.js';
import { EnvironmentForm } from './environment-form.js';
import { SdkKeys } from './sdk-keys.js';

/** Environments of the app: create, rename, production flag, reorder; each one's SDK keys, copied and rotated. */
export default function EnvironmentsPage() {
  const { api, can } = useSession();
  const { app, envs, reloadEnvs } = useWorkspace();
  const toast = useToast();
  const [editing, setEditing] = useState<EnvironmentHeader | 'new' | null>(null);
  const rowAction = useAction();
  const admin = can('admin');
  const base = `apps/${seg(app.id)}/environments`;

  const move = async (env: EnvironmentHeader, by: number) => {
    const done = await rowAction.run(() => api.send<Environment>('PATCH', `${base}/${seg(env.id)}`, { order: env.order + by }));
    if (done) {
      toast(`Moved ${env.name} ${by < 0 ? 'up' : 'down'}`);
      reloadEnvs();
    }
  };

  return (
    <Page
      title="Environments"
      actions={
        admin ? (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New environment
          </button>
        ) : null
      }
    >
      <p class="muted">
        Each environment has its own targeting and its own SDK keys. Production environments ask for confirmation before a flag is switched there.
      </p>
      <ApiErrorBox error={rowAction.error} />
      <Table
        caption="Environments, in order"
        rowKey={(e) => e.id}
        rows={envs}
        empty="No environment."
        columns={[
          { key: 'order', label: 'Order', render: (e) => e.order },
          { key: 'name', label: 'Name', render: (e) => <strong>{e.name}</strong> },
          { key: 'production', label: 'Production', render: (e) => (e.isProduction ? <span class="badge on">production</span> : <span class="muted">no</span>) },
          { key: 'version', label: 'Flag state version', render: (e) => e.flagStateVersion },
          {
            key: 'actions',
            label: 'Actions',
            render: (e) =>
              admin ? (
                <div class="actions">
                  <button type="button" class="small" onClick={() => setEditing(e)} aria-label={`Edit ${e.name}`}>
                    Edit
                  </button>
                  <button type="button" class="small" disabled={rowAction.busy || e === envs[0]} onClick={() => void move(e, -1)} aria-label={`Move ${e.name} up`}>
                    ↑
                  </button>
                  <button type="button" class="small" disabled={rowAction.busy || e === envs.at(-1)} onClick={() => void move(e, 1)} aria-label={`Move ${e.name} down`}>
                    ↓
                  </button>
                </div>
              ) : (
                <span class="muted">read-only</span>
              ),
          },
        ]}
      />
      <h2>SDK keys</h2>
      <p class="muted">
        The publishable key goes in browsers and apps; the secret key only on servers. Rotating a key stops the old one at once.
      </p>
      {envs.map((e) => (
        <SdkKeys key={e.id} env={e} base={base} admin={admin} />
      ))}
      {editing ? (
        <EnvironmentForm
          env={editing === 'new' ? undefined : editing}
          base={base}
          onClose={() => setEditing(null)}
          onSaved={(e) => {
            toast(`Saved environment ${e.name}`);
            setEditing(null);
            reloadEnvs();
          }}
        />
      ) : null}
    </Page>
  );
}
