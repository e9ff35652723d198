import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { StageHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { TextField } from '../../components/field.js';
import { FormActions } from '../../components/form-actions.js';
import { useAction } from '../../components/use-action.js';

/** Create or edit one stage: name and colour (an HTML colour name or a hex code, as the API accepts). */
export function StageForm({ stage, base, onClose, onSaved }: { stage?: StageHeader | undefined; base: string; onClose: () => void; onSaved: (s: StageHeader) => void }) {
  const { api } = useSession();
  const [name, setName] = useState(stage?.name ?? '');
  const [color, setColor] = useState(stage?.color ?? '#1f4fd1');
  const save = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await save.run(() =>
      stage ? api.send<StageHeader>('PATCH', `${base}/${seg(stage.id)}`, { name, color }) : api.send<StageHeader>('POST', base, { name, color }),
    );
    if (saved) onSaved(saved);
  };
  return (
    <Dialog title={stage ? `Edit stage ${stage.name}` : 'New stage'} open onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <TextField label="Name" value={name} onInput={setName} error={issuesAt(save.error, 'name')} required autoFocus />
        <div class="inline-fields">
          <TextField label="Colour" value={color} onInput={setColor} error={issuesAt(save.error, 'color')} hint="An HTML colour name (teal) or a hex code (#1f4fd1)." />
          <span class="swatch large" aria-hidden="true" style={{ background: color }} />
        </div>
        <ApiErrorBox error={save.error} paths={['name', 'color']} />
        <FormActions submitLabel={stage ? 'Save stage' : 'Create stage'} busy={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
