import { useEffect, useId, useState } from 'preact/hooks';
import { SelectField, TextField, type Option } from '../../components/field.js';

export const ALL = '';

/** What the server filters on; `ALL` (empty) leaves a filter out. */
export interface AuditFilterValues {
  appId: string;
  envId: string;
  /** The stable actor id (a key id, `member:<id>`, `sdk:<envId>`, `system`). */
  actor: string;
  /** An exact action, or a prefix ending in `.*`. */
  action: string;
}

export interface SeenValues {
  /** Actor id → readable label, of every entry loaded so far. */
  actors: ReadonlyMap<string, string>;
  actions: ReadonlySet<string>;
  envIds: ReadonlySet<string>;
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** Every action seen, and a `<family>.*` choice for each family of them (`flag.*`, `segment.*`). */
function actionOptions(seen: ReadonlySet<string>, current: string): Option[] {
  const families = sorted([...seen].filter((a) => a.includes('.')).map((a) => `${a.slice(0, a.indexOf('.'))}.*`));
  const exact = sorted([...seen, ...(current && !current.endsWith('.*') ? [current] : [])]);
  const prefixes = sorted([...families, ...(current.endsWith('.*') ? [current] : [])]);
  return [
    { value: ALL, label: 'All actions' },
    ...prefixes.map((p) => ({ value: p, label: `Every ${p} action` })),
    ...exact.map((a) => ({ value: a, label: a })),
  ];
}

/**
 * The person typed or picked: a seen actor's label or id gives that actor's id; any other text is sent as an id as
 * it stands (`member:<id>`, a key id), so a person not on the loaded pages can be found too.
 */
function actorOf(text: string, actors: ReadonlyMap<string, string>): string {
  const typed = text.trim();
  if (!typed || actors.has(typed)) return typed;
  for (const [id, label] of actors) if (label === typed) return id;
  return typed;
}

export function AuditFilters(props: {
  values: AuditFilterValues;
  onChange: (values: AuditFilterValues) => void;
  apps: Option[];
  envName: (id: string) => string;
  envIds: string[];
  seen: SeenValues;
}) {
  const { values, onChange, seen } = props;
  const set = (patch: Partial<AuditFilterValues>) => onChange({ ...values, ...patch });
  const [person, setPerson] = useState(seen.actors.get(values.actor) ?? values.actor);
  useEffect(() => setPerson((typed) => (actorOf(typed, seen.actors) === values.actor ? typed : values.actor)), [values.actor]);
  const applyPerson = (text: string) => {
    const actor = actorOf(text, seen.actors);
    if (actor !== values.actor) set({ actor });
  };
  const listId = useId();
  const envIds = sorted([...props.envIds, ...seen.envIds, ...(values.envId ? [values.envId] : [])]);
  return (
    <form
      class="filters audit-filters"
      aria-label="Filter the audit"
      onSubmit={(e) => {
        e.preventDefault();
        applyPerson(person);
      }}
    >
      <SelectField label="App" value={values.appId} onChange={(appId) => set({ appId })} options={[{ value: ALL, label: 'All apps' }, ...props.apps]} />
      <SelectField
        label="Environment"
        value={values.envId}
        onChange={(envId) => set({ envId })}
        options={[{ value: ALL, label: 'All environments' }, ...envIds.map((id) => ({ value: id, label: props.envName(id) }))]}
      />
      <TextField
        label="Person or key"
        hint="A name, or an id (member:…)"
        list={listId}
        autocomplete="off"
        value={person}
        onInput={(text) => {
          setPerson(text);
          // A pick from the list (or clearing the field) applies at once; other typing on Enter or leaving the field.
          if (!text.trim() || seen.actors.has(text) || [...seen.actors.values()].includes(text)) applyPerson(text);
        }}
        onChange={(e) => applyPerson(e.currentTarget.value)}
      />
      <datalist id={listId}>
        {sorted(seen.actors.values()).map((label) => (
          <option key={label} value={label} />
        ))}
      </datalist>
      <SelectField label="Action" value={values.action} onChange={(action) => set({ action })} options={actionOptions(seen.actions, values.action)} />
    </form>
  );
}
