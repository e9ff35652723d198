/**
 * Rows per query for the long lists a snapshot load reads (every flag of an app, every targeting row of an
 * environment). Drivers buffer a whole result set before they hand it over: `sqlite3` builds it as native row
 * vectors on a thread-pool thread, and glibc keeps that thread's arena mapped after the rows are freed, pinned by
 * SQLite's page cache allocated in the same arena. With 10,000 flags × 3 environments read in one query per list,
 * about 25 MB of RSS stayed behind for good; pages of this size leave no more than an empty instance does. (Measured
 * with `npm run bench -- memory`; 250–1000 rows do equally well, 2000 already retains more.)
 */
export const PAGE_ROWS = 1000;

/**
 * Reads an ordered list in pages by keyset: `fetch(after, limit)` returns up to `limit` rows strictly after the raw
 * row `after` (from the start when undefined), in the list's order, which must be a total order over columns a row
 * never changes, so that no row is skipped or read twice between pages. Each page is decoded before the next is
 * read, so only one page of raw rows is alive at a time.
 *
 * Outside a transaction the pages are separate statements, as the lists a snapshot load reads already are: each row
 * is as new as its page, never older than the version read before it.
 */
export async function readPaged<Row, Out>(
  fetch: (after: Row | undefined, limit: number) => Promise<Row[]>,
  decode: (row: Row) => Out,
): Promise<Out[]> {
  const out: Out[] = [];
  let after: Row | undefined;
  for (;;) {
    const rows = await fetch(after, PAGE_ROWS);
    for (const row of rows) out.push(decode(row));
    if (rows.length < PAGE_ROWS) return out;
    after = rows[rows.length - 1];
  }
}
