import type { FlagHeader, Prerequisite } from '../../api/types.js';
import { SelectField } from '../../components/field.js';
import type { Issues } from '../../components/rule-builder/index.js';

/** The API's limit (TargetingBodySchema): at most 20 prerequisites, each flag once. */
export const MAX_PREREQUISITES = 20;

const REQUIRED = [
  { value: 'on', label: 'is on' },
  { value: 'off', label: 'is off' },
];

/**
 * The flags this flag depends on: it is on for a user only when every prerequisite evaluates as required for that
 * user. `flags` are the app's other flags; a stored prerequisite on a flag no longer listed (archived) stays shown.
 */
export function PrerequisitesEditor(props: { value: Prerequisite[]; onChange: (value: Prerequisite[]) => void; flags: FlagHeader[]; issues: Issues; readOnly: boolean }) {
  const { value, onChange, flags, issues, readOnly } = props;
  const used = new Set(value.map((p) => p.flagKey));
  const free = flags.filter((f) => !used.has(f.key));
  const label = (key: string) => flags.find((f) => f.key === key)?.name ?? key;
  const update = (i: number, next: Prerequisite) => onChange(value.map((p, j) => (j === i ? next : p)));
  const own = issues('prerequisites');

  return (
    <div class="prerequisites">
      {value.length === 0 ? <p class="muted">No prerequisites: only the rules below decide.</p> : null}
      <ul class="prerequisite-list">
        {value.map((p, i) => {
          // This row's flag plus the ones no other row uses: each flag once, as the API requires.
          const options = [{ value: p.flagKey, label: `${label(p.flagKey)} (${p.flagKey})` }, ...free.map((f) => ({ value: f.key, label: `${f.name} (${f.key})` }))];
          return (
            <li key={`${i}-${p.flagKey}`}>
              <SelectField
                label={`Prerequisite ${i + 1}: flag`}
                value={p.flagKey}
                options={options}
                disabled={readOnly}
                error={issues(`prerequisites.${i}.flagKey`)}
                onChange={(flagKey) => update(i, { ...p, flagKey })}
              />
              <SelectField
                label={`Prerequisite ${i + 1}: must be`}
                value={p.isEnabled ? 'on' : 'off'}
                options={REQUIRED}
                disabled={readOnly}
                error={issues(`prerequisites.${i}.isEnabled`)}
                onChange={(v) => update(i, { ...p, isEnabled: v === 'on' })}
              />
              {!readOnly ? (
                <button type="button" aria-label={`Remove prerequisite ${label(p.flagKey)}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
                  Remove
                </button>
              ) : null}
              {issues(`prerequisites.${i}`).length ? <p class="field-error">{issues(`prerequisites.${i}`).join('; ')}</p> : null}
            </li>
          );
        })}
      </ul>
      {own.length ? (
        <p class="field-error" role="alert">
          {own.join('; ')}
        </p>
      ) : null}
      {!readOnly ? (
        <button
          type="button"
          disabled={!free.length || value.length >= MAX_PREREQUISITES}
          onClick={() => onChange([...value, { flagKey: free[0]!.key, isEnabled: true }])}
        >
          Add prerequisite
        </button>
      ) : null}
      {!readOnly && !free.length && !value.length ? <p class="hint">The app has no other flag to depend on.</p> : null}
    </div>
  );
}
