import { useId } from 'preact/hooks';
import type { ConstantFilter, ContextFilter, ContextOperator, RolloutPercentageFilter } from '../../api/types.js';
import { formatPercent, ROLLOUT_MAX } from './filters.js';
import { OPERATOR_NAMES, OPERATORS, valuesFor } from './operators.js';
import { ValuesInput } from './values-input.js';

type Issues = (path: string, nested?: boolean) => string[];

function Problems({ id, messages }: { id: string; messages: string[] }) {
  return messages.length ? (
    <span class="field-error" id={id}>
      {messages.join('; ')}
    </span>
  ) : null;
}

export function ContextEditor({ value, onChange, path, issues, readOnly }: { value: ContextFilter; onChange: (f: ContextFilter) => void; path: string; issues: Issues; readOnly: boolean }) {
  const id = useId();
  const fieldIssues = issues(`${path}.field`);
  return (
    <div class="leaf context-leaf">
      <span class="leaf-part">
        <label for={`${id}-field`}>Attribute</label>
        <input
          id={`${id}-field`}
          list="attribute-hints"
          value={value.field}
          readOnly={readOnly}
          placeholder="user.id"
          aria-invalid={fieldIssues.length ? true : undefined}
          aria-describedby={fieldIssues.length ? `${id}-field-error` : undefined}
          onInput={(e) => onChange({ ...value, field: e.currentTarget.value })}
        />
        <Problems id={`${id}-field-error`} messages={fieldIssues} />
      </span>
      <span class="leaf-part">
        <label for={`${id}-op`}>Operator</label>
        <select
          id={`${id}-op`}
          value={value.operator}
          disabled={readOnly}
          onChange={(e) => {
            const operator = e.currentTarget.value as ContextOperator;
            onChange({ ...value, operator, values: valuesFor(operator, value.values) });
          }}
        >
          {OPERATOR_NAMES.map((op) => (
            <option key={op} value={op}>
              {OPERATORS[op].label}
            </option>
          ))}
        </select>
        <Problems id={`${id}-op-error`} messages={issues(`${path}.operator`)} />
      </span>
      <span class="leaf-part">
        <ValuesInput
          operator={value.operator}
          values={value.values}
          field={value.field || 'the attribute'}
          readOnly={readOnly}
          onChange={(values) => onChange({ ...value, values })}
          issuesAt={(i) => issues(`${path}.values.${i}`)}
          listIssues={issues(`${path}.values`)}
        />
      </span>
    </div>
  );
}

export function RolloutEditor({ value, onChange, path, issues, readOnly }: { value: RolloutPercentageFilter; onChange: (f: RolloutPercentageFilter) => void; path: string; issues: Issues; readOnly: boolean }) {
  const id = useId();
  const thresholdIssues = issues(`${path}.partialRolloutThreshold`);
  const attributeIssues = issues(`${path}.partialRolloutAttribute`);
  return (
    <div class="leaf rollout-leaf">
      <span class="leaf-part">
        <label for={`${id}-pct`}>Percentage</label>
        <span>
          <input
            id={`${id}-pct`}
            type="number"
            min={0}
            max={100}
            step="any"
            value={formatPercent(value.partialRolloutThreshold)}
            readOnly={readOnly}
            aria-invalid={thresholdIssues.length ? true : undefined}
            aria-describedby={`${id}-hint`}
            onInput={(e) => {
              const pct = Number(e.currentTarget.value);
              if (Number.isFinite(pct)) {
                onChange({ ...value, partialRolloutThreshold: Math.min(ROLLOUT_MAX, Math.max(0, Math.round(pct * 1000))) });
              }
            }}
          />
          <span aria-hidden="true"> %</span>
        </span>
        <Problems id={`${id}-pct-error`} messages={thresholdIssues} />
      </span>
      <span class="leaf-part">
        <label for={`${id}-attr`}>of</label>
        <input
          id={`${id}-attr`}
          list="attribute-hints"
          value={value.partialRolloutAttribute}
          readOnly={readOnly}
          aria-invalid={attributeIssues.length ? true : undefined}
          onInput={(e) => onChange({ ...value, partialRolloutAttribute: e.currentTarget.value })}
        />
        <Problems id={`${id}-attr-error`} messages={attributeIssues} />
      </span>
      <p class="hint" id={`${id}-hint`}>
        Split by a hash of this attribute and the flag key: the same {value.partialRolloutAttribute || 'value'} always gets the same answer.
      </p>
    </div>
  );
}

export function ConstantEditor({ value, onChange, readOnly }: { value: ConstantFilter; onChange: (f: ConstantFilter) => void; readOnly: boolean }) {
  const id = useId();
  return (
    <div class="leaf">
      <label for={id}>Matches</label>{' '}
      <select id={id} value={String(value.value)} disabled={readOnly} onChange={(e) => onChange({ type: 'constant', value: e.currentTarget.value === 'true' })}>
        <option value="true">everyone</option>
        <option value="false">no one</option>
      </select>
    </div>
  );
}
