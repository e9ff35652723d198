import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client.js';
import type { FlagHeader, Prerequisite } from '../src/api/types.js';
import type { Issues } from '../src/components/rule-builder/index.js';
import { PrerequisitesEditor } from '../src/pages/flag/prerequisites-editor.js';
import { fromLocalInput, ScheduleDialog, toLocalInput } from '../src/pages/flag/schedule-dialog.js';
import { scheduledBy } from '../src/pages/flag/schedules.js';

afterEach(cleanup);

const flag = (key: string, name: string) => ({ key, name }) as FlagHeader;
const FLAGS = [flag('checkout', 'Checkout'), flag('billing', 'Billing'), flag('search', 'Search')];

function renderPicker(initial: Prerequisite[], opts: { issues?: Issues; readOnly?: boolean } = {}) {
  const seen: { latest: Prerequisite[] } = { latest: initial };
  function Host() {
    const [value, setValue] = useState(initial);
    return (
      <PrerequisitesEditor
        value={value}
        onChange={(v) => {
          seen.latest = v;
          setValue(v);
        }}
        flags={FLAGS}
        issues={opts.issues ?? (() => [])}
        readOnly={opts.readOnly ?? false}
      />
    );
  }
  render(<Host />);
  return seen;
}

describe('prerequisite picker', () => {
  it('adds prerequisites from the other flags, each flag once, and sets the required state', () => {
    const seen = renderPicker([]);
    fireEvent.click(screen.getByRole('button', { name: 'Add prerequisite' }));
    expect(seen.latest).toEqual([{ flagKey: 'checkout', isEnabled: true }]);
    fireEvent.click(screen.getByRole('button', { name: 'Add prerequisite' }));
    expect(seen.latest).toEqual([
      { flagKey: 'checkout', isEnabled: true },
      { flagKey: 'billing', isEnabled: true },
    ]);
    // The second row offers its own flag and the unused one, never the first row's.
    const second = screen.getByLabelText('Prerequisite 2: flag') as HTMLSelectElement;
    expect([...second.options].map((o) => o.value)).toEqual(['billing', 'search']);
    fireEvent.change(second, { target: { value: 'search' } });
    fireEvent.change(screen.getByLabelText('Prerequisite 2: must be'), { target: { value: 'off' } });
    expect(seen.latest).toEqual([
      { flagKey: 'checkout', isEnabled: true },
      { flagKey: 'search', isEnabled: false },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Add prerequisite' }));
    expect(screen.getByRole('button', { name: 'Add prerequisite' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove prerequisite Checkout' }));
    expect(seen.latest.map((p) => p.flagKey)).toEqual(['search', 'billing']);
  });

  it("shows the API's errors under the row they name, and keeps a prerequisite on a flag no longer listed", () => {
    const err = new ApiError(400, { error: { code: 'not_possible', message: 'cycle' }, issues: { 'prerequisites.0.flagKey': ['would make a cycle'] } } as never, 'x');
    renderPicker([{ flagKey: 'gone', isEnabled: false }], { issues: (p, nested) => err.issuesAt(p, nested) });
    const select = screen.getByLabelText('Prerequisite 1: flag') as HTMLSelectElement;
    expect(select.value).toBe('gone');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('would make a cycle').id).toBe(select.getAttribute('aria-describedby'));
  });

  it('is read-only for viewers: no add, no remove, selects disabled', () => {
    renderPicker([{ flagKey: 'checkout', isEnabled: true }], { readOnly: true });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByLabelText('Prerequisite 1: flag')).toHaveProperty('disabled', true);
  });
});

describe('schedule form', () => {
  const NOW = new Date(2030, 5, 1, 10, 0, 0);

  it('converts between the local date-time input and ISO instants', () => {
    const local = toLocalInput(NOW);
    expect(local).toBe('2030-06-01T10:00:00');
    expect(fromLocalInput(local)).toBe(NOW.toISOString());
    expect(fromLocalInput('2030-06-01T10:00')).toBe(NOW.toISOString());
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('tomorrow')).toBeUndefined();
  });

  it('sends the picked local time as an ISO instant, an hour ahead by default', () => {
    const onSchedule = vi.fn();
    render(<ScheduleDialog open envName="Production" busy={false} error={undefined} onClose={() => {}} onSchedule={onSchedule} now={() => NOW} />);
    const input = screen.getByLabelText('Apply at (your local time)') as HTMLInputElement;
    expect(fromLocalInput(input.value)).toBe(new Date(2030, 5, 1, 11, 0, 0).toISOString());
    fireEvent.input(input, { target: { value: '2030-06-02T08:30:15' } });
    expect(screen.getByText(/sent as 2030-06-0/).textContent).toContain(new Date(2030, 5, 2, 8, 30, 15).toISOString());
    fireEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(onSchedule).toHaveBeenCalledWith(new Date(2030, 5, 2, 8, 30, 15).toISOString());
  });

  it('refuses a past or empty time locally, and shows the API error on `at` under the field', () => {
    const onSchedule = vi.fn();
    const { rerender } = render(<ScheduleDialog open envName="Production" busy={false} error={undefined} onClose={() => {}} onSchedule={onSchedule} now={() => NOW} />);
    const input = screen.getByLabelText('Apply at (your local time)');
    fireEvent.input(input, { target: { value: '2030-06-01T09:59:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(screen.getByText('Pick a time in the future.')).toBeTruthy();
    fireEvent.input(input, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(screen.getByText('Enter a date and a time.')).toBeTruthy();
    expect(onSchedule).not.toHaveBeenCalled();

    const err = new ApiError(400, { error: { code: 'invalid_request', message: 'The time is not in the future' }, issues: { at: ['must be after 2030-06-01T10:00:05.000Z'], 'targeting.rules.0.filter': ['bad'] } } as never, 'x');
    rerender(<ScheduleDialog open envName="Production" busy={false} error={err} onClose={() => {}} onSchedule={onSchedule} now={() => NOW} />);
    expect(screen.getByLabelText('Apply at (your local time)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/must be after 2030-06-01T10:00:05.000Z/)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('targeting.rules.0.filter');
  });
});

describe('scheduled changes list', () => {
  it('names who scheduled: a member by name, the signed-in key by its name, another key by id', () => {
    const members = [{ id: 'u-7', name: 'Ada Lovelace', email: 'ada@example.com' }];
    const me = { type: 'key' as const, id: 'mk1', name: 'CI', scopes: null };
    expect(scheduledBy('member:u-7', members, me)).toBe('Ada Lovelace');
    expect(scheduledBy('member:u-8', members, me)).toBe('u-8');
    expect(scheduledBy('mk1', members, me)).toBe('CI (management key)');
    expect(scheduledBy('mk2', members, me)).toBe('key mk2');
  });
});
