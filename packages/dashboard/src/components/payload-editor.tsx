import { useId, useState } from 'preact/hooks';

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Offset of the first `token` outside a string literal: where V8 stopped when its message names no position. */
function tokenOffset(text: string, token: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && token !== '"') inString = true;
    else if (text.startsWith(token, i)) return i;
  }
  return -1;
}

function where(text: string, message: string): string {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return ` at line ${lineCol[1]}, column ${lineCol[2]}`;
  const token = /Unexpected token '(.+?)'/.exec(message)?.[1];
  const at = Number(/position (\d+)/.exec(message)?.[1] ?? (token ? tokenOffset(text, token) : -1));
  if (at < 0) return /end of JSON/.test(message) ? ' at the end' : '';
  const before = text.slice(0, at);
  return ` at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
}

/** JSON.parse with the problem placed by line and column (browsers word and place it differently). */
export function parseJson(text: string): Parsed {
  if (!text.trim()) return { ok: false, message: 'Enter a JSON value, e.g. {"color": "blue"}, "text", 3 or null.' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const reason = message.replace(/,? ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    return { ok: false, message: `Not valid JSON${where(text, message)}: ${reason}` };
  }
}

export const formatJson = (value: unknown) => JSON.stringify(value, null, 2) ?? 'null';

/**
 * A JSON payload: edited as text, checked as it is typed, and reported to the parent only while it parses
 * (`onChange(value)`); `onValidity` tells the parent whether it may save. Server `issues` show under it too.
 */
export function PayloadEditor(props: {
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onValidity?: (valid: boolean) => void;
  readOnly?: boolean;
  issues?: string[];
}) {
  const { label, value, onChange, onValidity, readOnly = false, issues = [] } = props;
  const id = useId();
  const [text, setText] = useState(() => formatJson(value));
  const parsed = parseJson(text);
  const problems = [...(parsed.ok ? [] : [parsed.message]), ...issues];
  return (
    <div class={`field payload-editor${problems.length ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={Math.min(12, Math.max(3, text.split('\n').length))}
        value={text}
        readOnly={readOnly}
        spellcheck={false}
        aria-invalid={problems.length ? true : undefined}
        aria-describedby={problems.length ? `${id}-error` : `${id}-hint`}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          const result = parseJson(next);
          onValidity?.(result.ok);
          if (result.ok) onChange(result.value);
        }}
      />
      {problems.length ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {problems.join('; ')}
        </p>
      ) : (
        <p class="hint" id={`${id}-hint`}>
          Any JSON value; SDKs receive it as the variant's payload.
          {!readOnly ? (
            <>
              {' '}
              <button type="button" class="link" onClick={() => setText(formatJson(parsed.ok ? parsed.value : value))}>
                Format
              </button>
            </>
          ) : null}
        </p>
      )}
    </div>
  );
}
