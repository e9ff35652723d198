import type { ConfigVariant, Segment } from '../../api/types.js';
import { TextField } from '../../components/field.js';
import { PayloadEditor } from '../../components/payload-editor.js';
import { FilterEditor, filterOfKind, type Issues } from '../../components/rule-builder/index.js';
import { moved } from '../../components/use-action.js';

/**
 * Config variants: SDKs get the first variant whose filter matches, with its key and JSON payload. Each variant
 * has its own filter (the same builder as rules). `invalid` collects the variants whose payload does not parse.
 */
export function VariantsEditor(props: {
  variants: ConfigVariant[];
  onChange: (variants: ConfigVariant[]) => void;
  onPayloadValidity: (index: number, valid: boolean) => void;
  issues: Issues;
  readOnly: boolean;
  segments: Segment[];
  /** Bumped when the variants are replaced from outside (reload, discard), so payload texts restart. */
  generation: number;
}) {
  const { variants, onChange, onPayloadValidity, issues, readOnly, generation } = props;
  const set = (i: number, v: ConfigVariant) => onChange(variants.map((old, j) => (j === i ? v : old)));
  return (
    <div class="variants">
      {variants.length === 0 ? <p class="muted">No config: SDKs get no payload for this flag here.</p> : null}
      <ol class="rules">
        {variants.map((variant, i) => (
          <li key={`${generation}-${i}`} class="rule">
            <div class="rule-head">
              <h4>Variant {i + 1}</h4>
              {!readOnly ? (
                <span class="actions">
                  <button type="button" class="small" disabled={i === 0} aria-label={`Move variant ${i + 1} up`} onClick={() => onChange(moved(variants, i, -1))}>
                    ↑
                  </button>
                  <button type="button" class="small" disabled={i === variants.length - 1} aria-label={`Move variant ${i + 1} down`} onClick={() => onChange(moved(variants, i, 1))}>
                    ↓
                  </button>
                  <button
                    type="button"
                    class="small"
                    aria-label={`Remove variant ${i + 1}`}
                    onClick={() => {
                      onPayloadValidity(i, true);
                      onChange(variants.filter((_, j) => j !== i));
                    }}
                  >
                    Remove
                  </button>
                </span>
              ) : null}
            </div>
            <TextField label={`Key of variant ${i + 1}`} value={variant.key} readOnly={readOnly} onInput={(key) => set(i, { ...variant, key })} error={issues(`config.variants.${i}.key`)} />
            <PayloadEditor
              label={`Payload of variant ${i + 1} (JSON)`}
              value={variant.payload}
              readOnly={readOnly}
              onChange={(payload) => set(i, { ...variant, payload })}
              onValidity={(valid) => onPayloadValidity(i, valid)}
              issues={issues(`config.variants.${i}.payload`, true)}
            />
            <p class="field-label">Who gets variant {i + 1}</p>
            <FilterEditor
              value={variant.filter}
              onChange={(filter) => set(i, { ...variant, filter })}
              path={`config.variants.${i}.filter`}
              issues={issues}
              readOnly={readOnly}
              label={`Filter of variant ${i + 1}`}
            />
          </li>
        ))}
      </ol>
      {!readOnly ? (
        <button
          type="button"
          onClick={() => onChange([...variants, { key: variants.length ? `variant-${variants.length + 1}` : 'default', payload: {}, filter: filterOfKind('constant') }])}
        >
          Add variant
        </button>
      ) : null}
    </div>
  );
}
