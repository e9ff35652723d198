import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Entity } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { TextField } from '../../components/field.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import type { EntityKind } from './entity-kind.js';

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A typed value as the targeting rules compare it: JSON when it parses (3, true, "x"), else the text itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An entity's name and attributes, and a form to set one attribute (merged into the stored ones). */
export function EntityAttributes({ kind, entity, base, onSaved }: { kind: EntityKind; entity: Entity; base: string; onSaved: (e: Entity) => void }) {
  const { api, can } = useSession();
  const toast = useToast();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const save = useAction();
  const attributes = Object.entries(entity.attributes);
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await save.run(() => api.send<Entity>('PUT', base, { attributes: { [name]: parseValue(value) } }));
    if (saved) {
      toast(`Set ${name} of ${kind.noun} ${entity.id}`);
      setName('');
      setValue('');
      onSaved(saved);
    }
  };
  return (
    <section aria-labelledby="attributes-title">
      <h2 id="attributes-title">Attributes</h2>
      <dl class="attributes">
        <dt>Id</dt>
        <dd>
          <code>{entity.id}</code>
        </dd>
        <dt>Name</dt>
        <dd>{entity.name ?? <span class="muted">none</span>}</dd>
        {attributes.map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>
              <code>{show(v)}</code>
            </dd>
          </Fragment>
        ))}
        <dt>Last updated</dt>
        <dd>{new Date(entity.updatedAt).toLocaleString()}</dd>
      </dl>
      {attributes.length === 0 ? <p class="muted">No attributes stored.</p> : null}
      {can('write:entities') ? (
        <form class="inline-fields" onSubmit={(e) => void submit(e)} aria-label="Set an attribute">
          <TextField label="Attribute" value={name} onInput={setName} required error={issuesAt(save.error, `attributes.${name}`)} />
          <TextField label="Value" value={value} onInput={setValue} hint={'JSON (42, true, "text") or plain text.'} />
          <button type="submit" disabled={save.busy}>
            Set attribute
          </button>
        </form>
      ) : null}
      <ApiErrorBox error={save.error} paths={[`attributes.${name}`]} />
    </section>
  );
}
