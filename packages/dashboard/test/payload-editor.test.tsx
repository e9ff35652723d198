import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, PayloadEditor } from '../src/components/payload-editor.js';

afterEach(cleanup);

function renderEditor(value: unknown, issues: string[] = []) {
  const calls = { values: [] as unknown[], validity: [] as boolean[] };
  render(<PayloadEditor label="Payload" value={value} issues={issues} onChange={(v) => calls.values.push(v)} onValidity={(ok) => calls.validity.push(ok)} />);
  return { calls, box: screen.getByLabelText('Payload') as HTMLTextAreaElement };
}

describe('payload editor', () => {
  it('shows the payload as formatted JSON and reports each edit that parses', () => {
    const { calls, box } = renderEditor({ color: 'blue' });
    expect(box.value).toBe('{\n  "color": "blue"\n}');
    fireEvent.input(box, { target: { value: '{"color": "red", "size": [1, 2]}' } });
    expect(calls.values).toEqual([{ color: 'red', size: [1, 2] }]);
    expect(calls.validity).toEqual([true]);
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses text that is not JSON: says where, marks the field invalid, reports nothing to save', () => {
    const { calls, box } = renderEditor({});
    fireEvent.input(box, { target: { value: '{\n  "color": blue\n}' } });
    expect(calls.values).toEqual([]);
    expect(calls.validity).toEqual([false]);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(box.getAttribute('aria-describedby')!)!;
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toMatch(/^Not valid JSON at line 2, column \d+/);
    fireEvent.input(box, { target: { value: '"blue"' } });
    expect(calls.values).toEqual(['blue']);
    expect(calls.validity).toEqual([false, true]);
  });

  it('accepts every JSON value (null, numbers, strings) but not an empty box', () => {
    expect(parseJson('null')).toEqual({ ok: true, value: null });
    expect(parseJson(' 3 ')).toEqual({ ok: true, value: 3 });
    expect(parseJson('')).toMatchObject({ ok: false });
    expect(parseJson('{"a":1,}')).toMatchObject({ ok: false, message: expect.stringMatching(/line 1, column/) });
  });

  it('formats on request, and shows the server’s issues for the payload', () => {
    const { box } = renderEditor({ a: 1 }, ['payload is too large']);
    expect(screen.getByText('payload is too large')).toBeTruthy();
    fireEvent.input(box, { target: { value: '{"a":   1,"b":[true]}' } });
    cleanup();
    const again = renderEditor({ a: 1 });
    fireEvent.input(again.box, { target: { value: '{"a":   1,"b":[true]}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Format' }));
    expect(again.box.value).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
  });
});
