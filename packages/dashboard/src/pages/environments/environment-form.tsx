import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { Environment, EnvironmentHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { Checkbox, TextField } from '../../components/field.js';
import { FormActions } from '../../components/form-actions.js';
import { useAction } from '../../components/use-action.js';

/** Create an environment, or rename one and set whether it is production. */
export function EnvironmentForm({ env, base, onClose, onSaved }: { env?: EnvironmentHeader | undefined; base: string; onClose: () => void; onSaved: (e: Environment) => void }) {
  const { api } = useSession();
  const [name, setName] = useState(env?.name ?? '');
  const [isProduction, setIsProduction] = useState(env?.isProduction ?? false);
  const save = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const body = { name, isProduction };
    const saved = await save.run(() => (env ? api.send<Environment>('PATCH', `${base}/${seg(env.id)}`, body) : api.send<Environment>('POST', base, body)));
    if (saved) onSaved(saved);
  };
  return (
    <Dialog title={env ? `Edit environment ${env.name}` : 'New environment'} open onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <TextField label="Name" value={name} onInput={setName} error={issuesAt(save.error, 'name')} required autoFocus />
        <Checkbox
          label="Production environment"
          checked={isProduction}
          onChange={setIsProduction}
          hint="Switching a flag on or off here asks for confirmation first."
        />
        <ApiErrorBox error={save.error} paths={['name']} />
        <FormActions submitLabel={env ? 'Save environment' : 'Create environment'} busy={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
