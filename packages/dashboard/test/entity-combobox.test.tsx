import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entity } from '../src/api/types.js';
import { EntityCombobox } from '../src/components/entity-combobox.js';

afterEach(cleanup);

const entity = (id: string, name: string | null = null) => ({ id, name, attributes: {}, createdAt: '', updatedAt: '' }) as Entity;
const STORED = [entity('u-1', 'Ada'), entity('u-2', 'Grace'), entity('u-3'), entity('v-9', 'Barbara')];

function setup(exclude: string[] = []) {
  const search = vi.fn(async (text: string, limit: number) => STORED.filter((e) => e.id.startsWith(text) || e.name?.toLowerCase().includes(text.toLowerCase())).slice(0, limit));
  const onPick = vi.fn();
  render(<EntityCombobox label="Add a stored user" search={search} exclude={exclude} onPick={onPick} />);
  return { search, onPick, input: screen.getByRole('combobox', { name: 'Add a stored user' }) as HTMLInputElement };
}

describe('stored entity picker (combobox)', () => {
  it('searches as you type, leaves out the ones already added, and picks with the keyboard', async () => {
    const { search, onPick, input } = setup(['u-1']);
    fireEvent.focus(input);
    fireEvent.input(input, { target: { value: 'u-' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    expect(search).toHaveBeenLastCalledWith('u-', 11);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['u-2 Grace', 'u-3']);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('2 suggestions');

    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const active = input.getAttribute('aria-activedescendant');
    expect(document.getElementById(active!)?.textContent).toBe('u-3');
    expect(document.getElementById(active!)?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' }); // wraps to the first
    expect(document.getElementById(input.getAttribute('aria-activedescendant')!)?.textContent).toBe('u-2 Grace');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith('u-2');
    expect(input.value).toBe('');
  });

  it('finds by name, picks with the mouse, closes on Escape, and Enter without a suggestion sends the typed id', async () => {
    const { onPick, input } = setup();
    fireEvent.focus(input);
    fireEvent.input(input, { target: { value: 'barb' } });
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['v-9 Barbara']));
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    fireEvent.input(input, { target: { value: 'barb' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    fireEvent.mouseDown(screen.getByRole('option'));
    expect(onPick).toHaveBeenLastCalledWith('v-9');

    fireEvent.input(input, { target: { value: 'zz-unknown' } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('No stored match'));
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenLastCalledWith('zz-unknown');
  });
});
