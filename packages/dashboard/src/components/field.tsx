import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

interface FieldProps {
  label: string;
  /** Messages shown under the field and announced with it (aria-describedby). */
  error?: string[] | undefined;
  hint?: ComponentChildren;
  /** Visually hidden label (the context labels it, e.g. a table column). */
  hideLabel?: boolean;
}

function Frame({ id, label, error, hint, hideLabel, children }: FieldProps & { id: string; children: ComponentChildren }) {
  return (
    <div class={`field${error?.length ? ' invalid' : ''}`}>
      <label for={id} class={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {children}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error?.length ? (
        <p class="field-error" id={`${id}-error`}>
          {error.join('; ')}
        </p>
      ) : null}
    </div>
  );
}

const described = (id: string, { error, hint }: FieldProps) =>
  [hint ? `${id}-hint` : '', error?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** What every control of a field carries: its id, invalid state and the ids of its hint and error. */
const controlProps = (id: string, props: FieldProps) => ({
  id,
  'aria-invalid': props.error?.length ? true : undefined,
  'aria-describedby': described(id, props),
});

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label'>;

export function TextField(props: FieldProps & InputProps & { value: string; onInput: (value: string) => void }) {
  const { label, error, hint, hideLabel, value, onInput, ...rest } = props;
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <input {...rest} {...controlProps(id, props)} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </Frame>
  );
}

export function TextArea(props: FieldProps & { value: string; onInput: (value: string) => void; rows?: number; disabled?: boolean; spellcheck?: boolean; class?: string }) {
  const { label, error, hint, hideLabel, value, onInput, ...rest } = props;
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <textarea {...rest} {...controlProps(id, props)} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </Frame>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField(props: FieldProps & { value: string; options: Option[]; onChange: (value: string) => void; disabled?: boolean }) {
  const { label, error, hint, hideLabel, value, options, onChange, disabled } = props;
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <select
        {...controlProps(id, props)}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function Checkbox({ label, checked, onChange, disabled, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; hint?: string }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onChange(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
