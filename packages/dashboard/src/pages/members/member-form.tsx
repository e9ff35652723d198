import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { UserHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { TextField } from '../../components/field.js';
import { FormActions } from '../../components/form-actions.js';
import { useAction } from '../../components/use-action.js';

/** Add a member (its id is fixed from then on) or change one's name, email and avatar. */
export function MemberForm({ member, onClose, onSaved }: { member?: UserHeader | undefined; onClose: () => void; onSaved: (m: UserHeader) => void }) {
  const { api } = useSession();
  const [id, setId] = useState(member?.id ?? '');
  const [name, setName] = useState(member?.name ?? '');
  const [email, setEmail] = useState(member?.email ?? '');
  const [avatarUrl, setAvatarUrl] = useState(member?.avatarUrl ?? '');
  const save = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await save.run(() =>
      api.send<UserHeader>('PUT', `members/${seg(id.trim())}`, { name, email, avatarUrl: avatarUrl.trim() ? avatarUrl.trim() : null }),
    );
    if (saved) onSaved(saved);
  };
  return (
    <Dialog title={member ? `Edit member ${member.name}` : 'Add member'} open onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <TextField
          label="User id"
          value={id}
          onInput={setId}
          disabled={member !== undefined}
          error={issuesAt(save.error, 'memberId')}
          required
          hint="The id your app's sign-in gives this person."
          autoFocus={!member}
        />
        <TextField label="Name" value={name} onInput={setName} error={issuesAt(save.error, 'name')} autoFocus={member !== undefined} />
        <TextField label="Email" type="email" value={email} onInput={setEmail} error={issuesAt(save.error, 'email')} />
        <TextField label="Avatar URL (optional)" type="url" value={avatarUrl} onInput={setAvatarUrl} error={issuesAt(save.error, 'avatarUrl')} />
        <ApiErrorBox error={save.error} paths={['memberId', 'name', 'email', 'avatarUrl']} />
        <FormActions submitLabel={member ? 'Save member' : 'Add member'} busy={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
