import { useState } from 'preact/hooks';
import { ApiErrorBox, issuesAt } from '../../components/api-error.js';
import { Dialog } from '../../components/dialog.js';
import { TextField } from '../../components/field.js';
import { FormActions } from '../../components/form-actions.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as `<input type="datetime-local">` shows it: the browser's local time, to the second. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The ISO instant of a local `datetime-local` value (a date-time without offset is local time), or undefined. */
export function fromLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * "Schedule…": when to apply the edited targeting, in the viewer's local time; the API gets the ISO instant. The
 * `at` errors of the API are shown under the field; the targeting's own errors stay beside the rules they are about.
 */
export function ScheduleDialog(props: {
  open: boolean;
  envName: string;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onSchedule: (at: string) => void;
  now?: () => Date;
}) {
  const now = props.now ?? (() => new Date());
  const [value, setValue] = useState(() => toLocalInput(new Date(Math.ceil((now().getTime() + 3_600_000) / 60_000) * 60_000)));
  const [local, setLocal] = useState<string[]>([]);
  const submit = (e: Event) => {
    e.preventDefault();
    const at = fromLocalInput(value);
    if (!at) return setLocal(['Enter a date and a time.']);
    if (Date.parse(at) <= now().getTime()) return setLocal(['Pick a time in the future.']);
    setLocal([]);
    props.onSchedule(at);
  };
  const at = fromLocalInput(value);
  return (
    <Dialog title={`Schedule this change in ${props.envName}`} open={props.open} onClose={props.onClose}>
      <form onSubmit={submit} noValidate>
        <p>The rules, variants and prerequisites as edited now are applied at that time, once, as a save would.</p>
        <TextField
          label="Apply at (your local time)"
          type="datetime-local"
          step={1}
          required
          value={value}
          onInput={setValue}
          error={[...local, ...issuesAt(props.error, 'at')]}
          hint={at ? `${new Date(at).toLocaleString()} ${timeZone()}, sent as ${at}` : `Time zone ${timeZone()}`}
        />
        <ApiErrorBox error={props.error} paths={['at']} />
        <FormActions submitLabel="Schedule change" busy={props.busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}
