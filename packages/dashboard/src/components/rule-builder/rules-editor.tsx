import type { Segment, StoredRule } from '../../api/types.js';
import { moved } from '../use-action.js';
import { FilterEditor, type Issues } from './filter-editor.js';
import { filterOfKind } from './filters.js';
import { FIELD_HINTS } from './operators.js';

/**
 * A flag's targeting rules in one environment: the flag is on for a context when any rule matches. A rule may
 * narrow to a segment (the segment's filter AND the rule's filter).
 */
export function RulesEditor(props: {
  rules: StoredRule[];
  onChange: (rules: StoredRule[]) => void;
  segments: Segment[];
  issues: Issues;
  readOnly?: boolean;
  /** Body path of the rules (`rules`). */
  path?: string;
}) {
  const { rules, onChange, segments, issues, readOnly = false, path = 'rules' } = props;
  const set = (i: number, rule: StoredRule) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <div class="rules-editor">
      <AttributeHints />
      {rules.length === 0 ? <p class="muted">No rules: the flag is off for everyone here.</p> : null}
      <ol class="rules">
        {rules.map((rule, i) => (
          <li key={i} class="rule">
            <div class="rule-head">
              <h4>Rule {i + 1}</h4>
              {i > 0 ? <span class="muted">(or)</span> : null}
              <span class="field inline">
                <label for={`rule-${path}-${i}-segment`}>Segment</label>
                <select
                  id={`rule-${path}-${i}-segment`}
                  value={rule.segmentId ?? ''}
                  disabled={readOnly}
                  onChange={(e) => {
                    const segmentId = e.currentTarget.value;
                    const { segmentId: _, ...rest } = rule;
                    set(i, segmentId ? { ...rest, segmentId } : rest);
                  }}
                >
                  <option value="">No segment</option>
                  {segments.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </span>
              {!readOnly ? (
                <span class="actions">
                  <button type="button" class="small" disabled={i === 0} aria-label={`Move rule ${i + 1} up`} onClick={() => onChange(moved(rules, i, -1))}>
                    ↑
                  </button>
                  <button type="button" class="small" disabled={i === rules.length - 1} aria-label={`Move rule ${i + 1} down`} onClick={() => onChange(moved(rules, i, 1))}>
                    ↓
                  </button>
                  <button type="button" class="small" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </span>
              ) : null}
            </div>
            {issues(`${path}.${i}.segmentId`).length ? <p class="field-error">{issues(`${path}.${i}.segmentId`).join('; ')}</p> : null}
            <FilterEditor value={rule.filter} onChange={(filter) => set(i, { ...rule, filter })} path={`${path}.${i}.filter`} issues={issues} readOnly={readOnly} label={`Rule ${i + 1}`} />
          </li>
        ))}
      </ol>
      {!readOnly ? (
        <button type="button" onClick={() => onChange([...rules, { filter: filterOfKind('context') }])}>
          Add rule
        </button>
      ) : null}
    </div>
  );
}

/** The attribute suggestions every attribute input lists (`list="attribute-hints"`). */
export function AttributeHints() {
  return (
    <datalist id="attribute-hints">
      {FIELD_HINTS.map((f) => (
        <option key={f} value={f} />
      ))}
    </datalist>
  );
}
