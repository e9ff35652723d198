import { useState } from 'preact/hooks';
import type { CreatedKey, ManagementScope } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { Checkbox, TextField } from '../../components/field.js';
import { FormActions } from '../../components/form-actions.js';
import { useAction } from '../../components/use-action.js';

/** What each scope allows (architecture.md, "Scopes"). */
const SCOPES: Array<{ scope: ManagementScope; hint: string }> = [
  { scope: 'read', hint: 'Read everything' },
  { scope: 'write:flags', hint: 'Create and edit flags' },
  { scope: 'write:flag:targeting', hint: 'Change targeting rules and specific targets' },
  { scope: 'write:entities', hint: 'Create, update and delete users and companies' },
  { scope: 'admin', hint: 'Apps, environments, stages, segments, keys, members' },
];

export function KeyForm({ onClose, onCreated }: { onClose: () => void; onCreated: (k: CreatedKey) => void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ManagementScope[]>(['read']);
  const save = useAction();
  const toggle = (scope: ManagementScope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  const submit = async (e: Event) => {
    e.preventDefault();
    const created = await save.run(() => api.send<CreatedKey>('POST', 'keys', { name, scopes }));
    if (created) onCreated(created);
  };
  const scopeErrors = issuesAt(save.error, 'scopes', true);
  return (
    <Dialog title="New management key" open onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <TextField label="Name" value={name} onInput={setName} error={issuesAt(save.error, 'name')} hint="Who or what uses it, e.g. CI deploys." required autoFocus />
        <fieldset class="scopes" aria-describedby={scopeErrors.length ? 'scope-errors' : undefined}>
          <legend>Scopes</legend>
          {SCOPES.map(({ scope, hint }) => (
            <Checkbox key={scope} label={scope} hint={hint} checked={scopes.includes(scope)} onChange={(on) => toggle(scope, on)} />
          ))}
        </fieldset>
        {scopeErrors.length ? (
          <p class="field-error" id="scope-errors">
            {scopeErrors.join('; ')}
          </p>
        ) : null}
        <ApiErrorBox error={save.error} paths={['name', 'scopes']} />
        <FormActions submitLabel="Create key" busy={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
