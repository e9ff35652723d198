import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { AppHeader, CreateFlagBody, FlagMutationResponse, StageHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { SelectField, TextArea, TextField } from '../../components/field.js';
import { useAction } from '../../components/use-action.js';
import { KEY_FORMATS, keyFromName } from './key-format.js';

/** New flag: the key follows the name in the app's key format until the person edits it. */
export function CreateFlagDialog({ app, stages, open, onClose, onCreated }: { app: AppHeader; stages: StageHeader[]; open: boolean; onClose: () => void; onCreated: (key: string) => void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [stageId, setStageId] = useState('');
  const action = useAction();
  const format = KEY_FORMATS[app.flagKeyFormat];
  const shownKey = keyEdited ? key : keyFromName(name, app.flagKeyFormat);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body: CreateFlagBody = { key: shownKey, name: name.trim() };
    if (description.trim()) body.description = description.trim();
    if (stageId) body.stageId = stageId;
    const created = await action.run(() => api.send<FlagMutationResponse>('POST', `apps/${seg(app.id)}/flags`, body));
    if (created) onCreated(created.flag.key);
  };

  return (
    <Dialog title="New flag" open={open} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <TextField label="Name" value={name} onInput={setName} error={issuesAt(action.error, 'name')} required autoFocus />
        <TextField
          label="Key"
          value={shownKey}
          onInput={(v) => {
            setKeyEdited(true);
            setKey(v);
          }}
          error={issuesAt(action.error, 'key')}
          hint={
            <>
              The name code uses to check the flag; it cannot change later. This app's keys are {format.label}, e.g. <code>{format.example}</code>.
            </>
          }
          required
        />
        <TextArea label="Description" value={description} onInput={setDescription} rows={2} error={issuesAt(action.error, 'description')} />
        <SelectField
          label="Stage"
          value={stageId}
          onChange={setStageId}
          options={[{ value: '', label: 'No stage' }, ...stages.map((s) => ({ value: s.id, label: s.name }))]}
          error={issuesAt(action.error, 'stageId')}
        />
        <ApiErrorBox error={action.error} paths={['name', 'key', 'description', 'stageId']} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={action.busy || !name.trim() || !shownKey}>
            Create flag
          </button>
        </div>
      </form>
    </Dialog>
  );
}
