import type { BenchTable, Cell } from './result.js';

/** Number formatting shared by the benches: few significant digits, thousands separated. */
export function formatNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  return value.toPrecision(digits);
}

function cellText(cell: Cell): string {
  if (cell === null) return '—';
  return typeof cell === 'number' ? formatNumber(cell) : cell;
}

const isNumeric = (rows: Cell[][], column: number) => rows.some((row) => typeof row[column] === 'number');

export function markdownTable(table: BenchTable): string {
  const right = table.columns.map((_, i) => isNumeric(table.rows, i));
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const lines = [
    `| ${table.columns.map(escape).join(' | ')} |`,
    `|${right.map((r) => (r ? '---:' : '---')).join('|')}|`,
    ...table.rows.map((row) => `| ${table.columns.map((_, i) => escape(cellText(row[i] ?? null))).join(' | ')} |`),
  ];
  return (table.title ? `**${table.title}**\n\n` : '') + lines.join('\n');
}

/** Plain-text table for the terminal. */
export function textTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => table.columns.map((_, i) => cellText(row[i] ?? null)))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const right = table.columns.map((_, i) => isNumeric(table.rows, i));
  const line = (row: string[]) =>
    row.map((text, i) => (right[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [...(table.title ? [table.title] : []), line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}
