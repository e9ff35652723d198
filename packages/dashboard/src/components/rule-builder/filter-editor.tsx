import { useId } from 'preact/hooks';
import type { Filter } from '../../api/types.js';
import { filterOfKind, KIND_LABELS, type FilterKind } from './filters.js';
import { ConstantEditor, ContextEditor, RolloutEditor } from './leaf-editors.js';
import './rule-builder.css';

export type Issues = (path: string, nested?: boolean) => string[];

const KINDS = Object.keys(KIND_LABELS) as FilterKind[];

/** Switching kind keeps what it can: into a group or a negation the old filter goes inside; out of one it comes back. */
function switchKind(value: Filter, kind: FilterKind): Filter {
  if (value.type === 'negation' && value.filter.type === kind) return value.filter;
  if (value.type === 'group' && value.filters.length === 1 && value.filters[0]!.type === kind) return value.filters[0]!;
  return kind === 'group' || kind === 'negation' ? filterOfKind(kind, value) : filterOfKind(kind);
}

export interface FilterEditorProps {
  value: Filter;
  onChange: (filter: Filter) => void;
  /** The filter's path in the request body (`rules.0.filter`), where the API's `issues` point. */
  path: string;
  issues: Issues;
  readOnly?: boolean;
  /** Names the node for assistive technology ("Condition 2 of rule 1"). */
  label: string;
  onRemove?: () => void;
  depth?: number;
}

/**
 * One filter of any of the five kinds, editable in place; groups and negations nest it. Every control is a labelled
 * native form control, so the whole tree is keyboard-usable.
 */
export function FilterEditor({ value, onChange, path, issues, readOnly = false, label, onRemove, depth = 0 }: FilterEditorProps) {
  const id = useId();
  const own = issues(path);
  return (
    <fieldset class={`filter-node depth-${Math.min(depth, 3)} kind-${value.type}`}>
      <legend class="visually-hidden">{label}</legend>
      <div class="node-head">
        <label for={`${id}-kind`} class="visually-hidden">
          Kind of {label.toLowerCase()}
        </label>
        <select id={`${id}-kind`} value={value.type} disabled={readOnly} onChange={(e) => onChange(switchKind(value, e.currentTarget.value as FilterKind))}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
        {onRemove && !readOnly ? (
          <button type="button" class="small" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>
      {own.length ? <p class="field-error">{own.join('; ')}</p> : null}
      <Body value={value} onChange={onChange} path={path} issues={issues} readOnly={readOnly} label={label} depth={depth} />
    </fieldset>
  );
}

function Body({ value, onChange, path, issues, readOnly, label, depth }: Required<Omit<FilterEditorProps, 'onRemove'>>) {
  switch (value.type) {
    case 'context':
      return <ContextEditor value={value} onChange={onChange} path={path} issues={issues} readOnly={readOnly} />;
    case 'rolloutPercentage':
      return <RolloutEditor value={value} onChange={onChange} path={path} issues={issues} readOnly={readOnly} />;
    case 'constant':
      return <ConstantEditor value={value} onChange={onChange} readOnly={readOnly} />;
    case 'negation':
      return (
        <div class="negation-body">
          <span class="connector">NOT</span>
          <FilterEditor
            value={value.filter}
            onChange={(filter) => onChange({ ...value, filter })}
            path={`${path}.filter`}
            issues={issues}
            readOnly={readOnly}
            label={`Negated ${label.toLowerCase()}`}
            depth={depth + 1}
          />
        </div>
      );
    case 'group':
      return <GroupBody value={value} onChange={onChange} path={path} issues={issues} readOnly={readOnly} label={label} depth={depth} />;
  }
}

function GroupBody({ value, onChange, path, issues, readOnly, label, depth }: Required<Omit<FilterEditorProps, 'onRemove' | 'value'>> & { value: Extract<Filter, { type: 'group' }> }) {
  const id = useId();
  const setChild = (i: number, child: Filter) => onChange({ ...value, filters: value.filters.map((f, j) => (j === i ? child : f)) });
  const add = (child: Filter) => onChange({ ...value, filters: [...value.filters, child] });
  return (
    <div class="group-body">
      <label for={`${id}-op`}>Match</label>{' '}
      <select id={`${id}-op`} value={value.operator} disabled={readOnly} onChange={(e) => onChange({ ...value, operator: e.currentTarget.value as 'and' | 'or' })}>
        <option value="and">all of these</option>
        <option value="or">any of these</option>
      </select>
      <ol class="group-children">
        {value.filters.map((child, i) => (
          <li key={i}>
            {i > 0 ? <span class="connector">{value.operator === 'and' ? 'AND' : 'OR'}</span> : null}
            <FilterEditor
              value={child}
              onChange={(f) => setChild(i, f)}
              path={`${path}.filters.${i}`}
              issues={issues}
              readOnly={readOnly}
              label={`Condition ${i + 1} of ${label.toLowerCase()}`}
              onRemove={() => onChange({ ...value, filters: value.filters.filter((_, j) => j !== i) })}
              depth={depth + 1}
            />
          </li>
        ))}
      </ol>
      {issues(`${path}.filters`).length ? <p class="field-error">{issues(`${path}.filters`).join('; ')}</p> : null}
      {!readOnly ? (
        <div class="actions">
          <button type="button" class="small" onClick={() => add(filterOfKind('context'))}>
            Add condition
          </button>
          <button type="button" class="small" onClick={() => add(filterOfKind('group'))}>
            Add nested group
          </button>
        </div>
      ) : null}
    </div>
  );
}
