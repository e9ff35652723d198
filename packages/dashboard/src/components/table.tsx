import type { ComponentChildren } from 'preact';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ComponentChildren;
  /** Shown as a sort button in the header when given; `sort` tells which column is sorted and how. */
  sortable?: boolean;
  class?: string;
}

/** A data table with a caption (for screen readers), sortable headers and an empty state. */
export function Table<T>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: ComponentChildren;
  sort?: { key: string; order: 'asc' | 'desc' };
  onSort?: (key: string) => void;
}) {
  const { caption, columns, rows, rowKey, empty, sort, onSort } = props;
  if (!rows.length) return <div class="state empty">{empty}</div>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const sorted = sort?.key === c.key ? sort.order : undefined;
              return (
                <th key={c.key} scope="col" class={c.class} aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}>
                  {c.sortable && onSort ? (
                    <button type="button" class="sort" onClick={() => onSort(c.key)}>
                      {c.label}
                      <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} class={c.class}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
