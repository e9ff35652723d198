import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { Filter, Segment } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { TextField } from '../../components/field.js';
import { FilterEditor, filterOfKind, filterProblems } from '../../components/rule-builder/index.js';
import { FormActions } from '../../components/form-actions.js';
import { useAction } from '../../components/use-action.js';


/** Name and filter of one segment, with the same rule builder the flag page uses. */
export function SegmentEditor(props: {
  segment?: Segment | undefined;
  base: string;
  readOnly: boolean;
  onClose: () => void;
  onSaved: (s: Segment) => void;
}) {
  const { segment, base, readOnly, onClose, onSaved } = props;
  const { api } = useSession();
  const [name, setName] = useState(segment?.name ?? '');
  const [filter, setFilter] = useState<Filter>(segment?.filter ?? filterOfKind('group'));
  const save = useAction();
  const [checked, setChecked] = useState(false);
  const problems = filterProblems(filter, 'filter');
  // The builder's own checks once a save was tried, and the API's issues at the same paths.
  const issues = (path: string, nested = false) => [
    ...(checked ? Object.entries(problems).filter(([p]) => p === path || (nested && p.startsWith(`${path}.`))).flatMap(([, m]) => m) : []),
    ...issuesAt(save.error, path, nested),
  ];
  const submit = async (e: Event) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(problems).length) return;
    const body = { name, filter };
    const answer = await save.run(() =>
      segment ? api.send<{ segment: Segment }>('PATCH', `${base}/${seg(segment.id)}`, body) : api.send<{ segment: Segment }>('POST', base, body),
    );
    if (answer) onSaved(answer.segment);
  };
  const title = segment ? `${readOnly ? 'Segment' : 'Edit segment'} ${segment.name}` : 'New segment';
  return (
    <form class="segment-editor" aria-label={title} onSubmit={(e) => void submit(e)}>
      <h2>{title}</h2>
      <TextField label="Segment name" value={name} onInput={setName} error={issuesAt(save.error, 'name')} disabled={readOnly} required autoFocus />
      <h3>Matches when</h3>
      <FilterEditor value={filter} onChange={setFilter} path="filter" issues={issues} readOnly={readOnly} label="Segment filter" />
      {checked && Object.keys(problems).length ? (
        <p class="field-error" role="alert">
          Fix the marked conditions first.
        </p>
      ) : null}
      <ApiErrorBox error={save.error} paths={['name', 'filter']} />
      <FormActions
        submitLabel={readOnly ? undefined : segment ? 'Save segment' : 'Create segment'}
        busy={save.busy}
        onCancel={onClose}
        cancelLabel={readOnly ? 'Close' : 'Cancel'}
      />
    </form>
  );
}
