import '../resources.css';
import { useState } from 'preact/hooks';
import type { ListMembers, UserHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useToast } from '../../components/toast.js';
import { useResource } from '../../components/use-resource.js';
import { MemberForm } from './member-form.js';

/**
 * The organisation's people: who may own a flag and who appears in the audit. Their id is the host app's own user
 * id, so the host's sign-in and the audit name the same person.
 */
export default function MembersPage() {
  const { api, can } = useSession();
  const toast = useToast();
  const members = useResource(() => api.get<ListMembers>('members').then((r) => r.data), [api]);
  const [editing, setEditing] = useState<UserHeader | 'new' | null>(null);
  const admin = can('admin');
  return (
    <Page
      title="Members"
      actions={
        admin ? (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            Add member
          </button>
        ) : null
      }
    >
      <p class="muted">Members own flags and are named in the audit. A member's id is the user id of your app's own sign-in.</p>
      <ApiErrorBox error={members.error} />
      {members.loading && !members.data ? (
        <Loading label="Loading members" />
      ) : (
        <Table
          caption="Members"
          rowKey={(m) => m.id}
          rows={members.data ?? []}
          empty="No member yet. Add the people who own flags."
          columns={[
            { key: 'name', label: 'Name', render: (m) => <strong>{m.name}</strong> },
            { key: 'email', label: 'Email', render: (m) => <a href={`mailto:${m.email}`}>{m.email}</a> },
            { key: 'id', label: 'User id', render: (m) => <code>{m.id}</code> },
            {
              key: 'actions',
              label: 'Actions',
              render: (m) =>
                admin ? (
                  <button type="button" class="small" onClick={() => setEditing(m)} aria-label={`Edit ${m.name}`}>
                    Edit
                  </button>
                ) : (
                  <span class="muted">read-only</span>
                ),
            },
          ]}
        />
      )}
      {editing ? (
        <MemberForm
          member={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(m) => {
            toast(`Saved member ${m.name}`);
            setEditing(null);
            members.reload();
          }}
        />
      ) : null}
    </Page>
  );
}
