import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { FlagDetails, FlagMutationResponse, StageHeader, UpdateFlagBody, UserHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Checkbox, SelectField, TextArea, TextField } from '../../components/field.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useWorkspace } from '../../workspace.js';

const FIELDS = ['name', 'description', 'stageId', 'ownerUserId', 'permanent', 'secret'];

/** The flag's own fields (row 7): only what changed is sent. */
export function SettingsForm({ details, stages, members, onSaved }: { details: FlagDetails; stages: StageHeader[]; members: UserHeader[]; onSaved: () => void }) {
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const save = useAction();
  const { flag } = details;
  const initial = {
    name: flag.name,
    description: flag.description ?? '',
    stageId: flag.stage?.id ?? '',
    ownerUserId: flag.owner?.id ?? '',
    permanent: flag.permanent,
    secret: details.secret,
  };
  const [form, setForm] = useState(initial);
  const readOnly = !can('write:flags');
  const change: UpdateFlagBody = {};
  if (form.name !== initial.name) change.name = form.name;
  if (form.description !== initial.description) change.description = form.description || null;
  if (form.stageId !== initial.stageId && form.stageId) change.stageId = form.stageId;
  if (form.ownerUserId !== initial.ownerUserId) change.ownerUserId = form.ownerUserId || null;
  if (form.permanent !== initial.permanent) change.permanent = form.permanent;
  if (form.secret !== initial.secret) change.secret = form.secret;
  const dirty = Object.keys(change).length > 0;

  const submit = async (e: Event) => {
    e.preventDefault();
    const done = await save.run(() => api.send<FlagMutationResponse>('PATCH', `apps/${seg(app.id)}/flags/${seg(flag.id)}`, change));
    if (done) {
      toast(`Saved ${done.flag.name}.`);
      onSaved();
    }
  };
  return (
    <form onSubmit={submit} class="settings-form" noValidate>
      <TextField label="Name" value={form.name} readOnly={readOnly} onInput={(name) => setForm({ ...form, name })} error={issuesAt(save.error, 'name')} />
      <TextArea label="Description" value={form.description} disabled={readOnly} rows={2} onInput={(description) => setForm({ ...form, description })} error={issuesAt(save.error, 'description')} />
      <div class="inline-fields">
        <SelectField
          label="Stage"
          value={form.stageId}
          disabled={readOnly}
          onChange={(stageId) => setForm({ ...form, stageId })}
          options={[...(initial.stageId ? [] : [{ value: '', label: 'No stage' }]), ...stages.map((s) => ({ value: s.id, label: s.name }))]}
          error={issuesAt(save.error, 'stageId')}
        />
        <SelectField
          label="Owner"
          value={form.ownerUserId}
          disabled={readOnly}
          onChange={(ownerUserId) => setForm({ ...form, ownerUserId })}
          options={[{ value: '', label: 'No owner' }, ...members.map((m) => ({ value: m.id, label: m.name }))]}
          error={issuesAt(save.error, 'ownerUserId')}
        />
      </div>
      <Checkbox label="Permanent" checked={form.permanent} disabled={readOnly} onChange={(permanent) => setForm({ ...form, permanent })} hint="A kill switch or entitlement that stays in the code: never marked stale." />
      <Checkbox label="Secret" checked={form.secret} disabled={readOnly} onChange={(secret) => setForm({ ...form, secret })} hint="Not sent to browser SDKs (publishable keys); only server SDKs see it." />
      <ApiErrorBox error={save.error} paths={FIELDS} />
      {!readOnly ? (
        <div class="actions">
          <button type="submit" class="primary" disabled={!dirty || save.busy}>
            Save settings
          </button>
          <button type="button" disabled={!dirty} onClick={() => setForm(initial)}>
            Discard changes
          </button>
        </div>
      ) : null}
    </form>
  );
}
