import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextOperator, Filter, Segment, StoredRule } from '../src/api/types.js';
import { FilterEditor, filterProblems, OPERATORS, RulesEditor, type Issues } from '../src/components/rule-builder/index.js';

afterEach(cleanup);

const noIssues: Issues = () => [];

/** The editor under a parent that keeps its state, as a page does; `latest` is what the page would save. */
function renderFilter(initial: Filter, issues: Issues = noIssues) {
  const seen: { latest: Filter } = { latest: initial };
  function Host() {
    const [value, setValue] = useState(initial);
    return (
      <FilterEditor
        value={value}
        onChange={(f) => {
          seen.latest = f;
          setValue(f);
        }}
        path="rules.0.filter"
        issues={issues}
        label="Rule 1"
      />
    );
  }
  render(<Host />);
  return seen;
}

const select = (label: string | RegExp, value: string, within_: HTMLElement = document.body) =>
  fireEvent.change(within(within_).getByLabelText(label), { target: { value } });

const CONTEXT: Filter = { type: 'context', field: 'user.plan', operator: 'IS', values: ['pro'] };

describe('rule builder: filter editor', () => {
  it('gives every operator the value inputs of its arity (0, 1, or a list) and keeps the values that still fit', () => {
    const seen = renderFilter(CONTEXT);
    for (const op of Object.keys(OPERATORS) as ContextOperator[]) {
      select('Operator', op);
      const { arity } = OPERATORS[op];
      const inputs = screen.queryAllByLabelText(/^Value( \d+)? for user\.plan$/);
      expect(seen.latest).toMatchObject({ type: 'context', operator: op });
      const values = (seen.latest as Extract<Filter, { type: 'context' }>).values;
      if (arity === 0) {
        expect(inputs, op).toHaveLength(0);
        expect(values).toEqual([]);
      } else if (arity === 1) {
        expect(inputs, op).toHaveLength(1);
        expect(values).toHaveLength(1);
      } else {
        expect(inputs.length, op).toBeGreaterThanOrEqual(1);
        expect(screen.getByRole('button', { name: 'Add value' })).toBeTruthy();
      }
    }
  });

  it('edits a many-valued operator as a list: add, type, remove', () => {
    const seen = renderFilter({ type: 'context', field: 'company.plan', operator: 'ANY_OF', values: ['pro'] });
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    fireEvent.input(screen.getByLabelText('Value 2 for company.plan'), { target: { value: 'team' } });
    expect(seen.latest).toEqual({ type: 'context', field: 'company.plan', operator: 'ANY_OF', values: ['pro', 'team'] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove value 1' }));
    expect(seen.latest).toMatchObject({ values: ['team'] });
  });

  it('uses typed inputs: a number for GT, a date for DATE_AFTER, days for AFTER', () => {
    renderFilter(CONTEXT);
    select('Operator', 'GT');
    expect((screen.getByLabelText('Value for user.plan') as HTMLInputElement).type).toBe('number');
    select('Operator', 'DATE_AFTER');
    expect((screen.getByLabelText('Value for user.plan') as HTMLInputElement).type).toBe('date');
    select('Operator', 'AFTER');
    expect(screen.getByText('days ago')).toBeTruthy();
  });

  it('builds nested groups and negations around what was there, and unwraps them again', () => {
    const seen = renderFilter(CONTEXT);
    select('Kind of rule 1', 'group');
    expect(seen.latest).toEqual({ type: 'group', operator: 'and', filters: [CONTEXT] });
    fireEvent.click(screen.getByRole('button', { name: 'Add nested group' }));
    select('Match', 'or', screen.getByRole('group', { name: 'Condition 2 of rule 1' }));
    select('Kind of condition 1 of rule 1', 'negation');
    expect(seen.latest).toMatchObject({
      type: 'group',
      filters: [
        { type: 'negation', filter: CONTEXT },
        { type: 'group', operator: 'or', filters: [{ type: 'context' }] },
      ],
    });
    select('Kind of condition 1 of rule 1', 'context');
    expect((seen.latest as Extract<Filter, { type: 'group' }>).filters[0]).toEqual(CONTEXT);
    fireEvent.click(screen.getByRole('button', { name: 'Remove condition 2 of rule 1' }));
    expect(seen.latest).toEqual({ type: 'group', operator: 'and', filters: [CONTEXT] });
  });

  it('offers all five kinds; a rollout takes a percentage on the 0..100000 scale', () => {
    const seen = renderFilter(CONTEXT);
    const kinds = [...(screen.getByLabelText('Kind of rule 1') as HTMLSelectElement).options].map((o) => o.value);
    expect(kinds.sort()).toEqual(['constant', 'context', 'group', 'negation', 'rolloutPercentage']);
    select('Kind of rule 1', 'rolloutPercentage');
    fireEvent.input(screen.getByLabelText('Percentage'), { target: { value: '12.5' } });
    expect(seen.latest).toEqual({ type: 'rolloutPercentage', partialRolloutAttribute: 'user.id', partialRolloutThreshold: 12_500 });
    select('Kind of rule 1', 'constant');
    select('Matches', 'false');
    expect(seen.latest).toEqual({ type: 'constant', value: false });
  });

  it("shows the API's issues next to the field their path names", () => {
    const issues: Issues = (path) => (path === 'rules.0.filter.filters.0.values.0' ? ['must be a number'] : []);
    renderFilter({ type: 'group', operator: 'and', filters: [{ type: 'context', field: 'user.age', operator: 'GT', values: ['x'] }] }, issues);
    const input = screen.getByLabelText('Value for user.age');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.textContent).toBe('must be a number');
  });

  it('finds problems before saving, at the API paths', () => {
    const filter: Filter = {
      type: 'group',
      operator: 'or',
      filters: [
        { type: 'context', field: '', operator: 'GT', values: ['abc'] },
        { type: 'negation', filter: { type: 'context', field: 'x', operator: 'NOT_ANY_OF', values: [''] } },
        { type: 'group', operator: 'and', filters: [] },
      ],
    };
    expect(Object.keys(filterProblems(filter, 'rules.0.filter')).sort()).toEqual([
      'rules.0.filter.filters.0.field',
      'rules.0.filter.filters.0.values.0',
      'rules.0.filter.filters.1.filter.values',
      'rules.0.filter.filters.2.filters',
    ]);
  });
});

describe('rule builder: rules editor', () => {
  const segments = [{ id: 'sg1', name: 'Beta testers' }] as Segment[];

  function renderRules(initial: StoredRule[], readOnly = false) {
    const seen: { latest: StoredRule[] } = { latest: initial };
    function Host() {
      const [rules, setRules] = useState(initial);
      return <RulesEditor rules={rules} onChange={(r) => ((seen.latest = r), setRules(r))} segments={segments} issues={noIssues} readOnly={readOnly} />;
    }
    render(<Host />);
    return seen;
  }

  it('adds rules, narrows one to a segment, reorders and removes them', () => {
    const seen = renderRules([{ filter: CONTEXT }]);
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(seen.latest).toHaveLength(2);
    select(/^Segment$/, 'sg1', screen.getAllByRole('listitem').find((li) => li.textContent?.startsWith('Rule 2'))!);
    expect(seen.latest[1]).toMatchObject({ segmentId: 'sg1' });
    fireEvent.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    expect(seen.latest[0]).toMatchObject({ segmentId: 'sg1' });
    expect(seen.latest[1]).toEqual({ filter: CONTEXT });
    fireEvent.click(screen.getByRole('button', { name: 'Remove rule 1' }));
    expect(seen.latest).toEqual([{ filter: CONTEXT }]);
  });

  it('read-only: no add, move or remove, and every control disabled or read-only', () => {
    renderRules([{ filter: CONTEXT }], true);
    expect(screen.queryByRole('button')).toBeNull();
    expect((screen.getByLabelText('Operator') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText('Attribute') as HTMLInputElement).readOnly).toBe(true);
  });
});
