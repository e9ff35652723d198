import { useId } from 'preact/hooks';
import type { ContextOperator } from '../../api/types.js';
import { OPERATORS } from './operators.js';

const INPUT_TYPE = { text: 'text', number: 'number', days: 'number', date: 'date' } as const;

/**
 * The value inputs an operator needs: none, one, or a list with add and remove. `issuesAt(i)` gives the messages
 * for value i; `listIssues` those for the list as a whole.
 */
export function ValuesInput(props: {
  operator: ContextOperator;
  values: string[];
  onChange: (values: string[]) => void;
  readOnly: boolean;
  field: string;
  issuesAt: (index: number) => string[];
  listIssues: string[];
}) {
  const { operator, values, onChange, readOnly, field, issuesAt, listIssues } = props;
  const id = useId();
  const { arity, input } = OPERATORS[operator];
  if (arity === 0) return null;
  const type = INPUT_TYPE[input];
  const set = (i: number, v: string) => onChange(values.map((old, j) => (j === i ? v : old)));
  const one = (i: number, label: string) => {
    const problems = issuesAt(i);
    return (
      <span class="value-input">
        <label class="visually-hidden" for={`${id}-${i}`}>
          {label}
        </label>
        <input
          id={`${id}-${i}`}
          type={type}
          {...(input === 'days' ? { min: 0, step: 1 } : {})}
          value={values[i] ?? ''}
          readOnly={readOnly}
          aria-invalid={problems.length ? true : undefined}
          aria-describedby={problems.length ? `${id}-${i}-error` : undefined}
          onInput={(e) => set(i, e.currentTarget.value)}
        />
        {input === 'days' ? <span class="muted"> days ago</span> : null}
        {problems.length ? (
          <span class="field-error" id={`${id}-${i}-error`}>
            {problems.join('; ')}
          </span>
        ) : null}
      </span>
    );
  };
  if (arity === 1) return one(0, `Value for ${field}`);
  return (
    <div class="values-list" role="group" aria-label={`Values for ${field}`}>
      <ul>
        {values.map((_, i) => (
          <li key={i}>
            {one(i, `Value ${i + 1} for ${field}`)}
            {!readOnly && values.length > 1 ? (
              <button type="button" class="small" aria-label={`Remove value ${i + 1}`} onClick={() => onChange(values.filter((__, j) => j !== i))}>
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {!readOnly ? (
        <button type="button" class="small" onClick={() => onChange([...values, ''])}>
          Add value
        </button>
      ) : null}
      {listIssues.length ? <p class="field-error">{listIssues.join('; ')}</p> : null}
    </div>
  );
}
