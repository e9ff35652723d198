/**
 * The name/value pairs of a URL query, exactly as `[...new URLSearchParams(text)]` gives them.
 *
 * URLSearchParams costs ~2 µs for an SDK's query (an iterator, a pair array per entry, a byte-level decoder);
 * here the usual query (well-formed escapes, no leading `?`) is split with `indexOf` and decoded with
 * `decodeURIComponent`, and anything else (a malformed escape, an escape that is not UTF-8, a leading `?`) is
 * handed to URLSearchParams whole, so both always agree (a property test holds them equal).
 */
export function queryPairs(text: string): Array<[string, string]> {
  if (text.charCodeAt(0) === 63 /* ? */) return [...new URLSearchParams(text)];
  const pairs: Array<[string, string]> = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      const eq = text.indexOf('=', start);
      const split = eq !== -1 && eq < end;
      const name = decodeComponent(text.slice(start, split ? eq : end));
      const value = split ? decodeComponent(text.slice(eq + 1, end)) : '';
      if (name === undefined || value === undefined) return [...new URLSearchParams(text)];
      pairs.push([name, value]);
    }
    start = end + 1;
  }
  return pairs;
}

const PLUS = /\+/g;

function decodeComponent(raw: string): string | undefined {
  const plus = raw.indexOf('+') !== -1;
  if (!plus && raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(plus ? raw.replace(PLUS, ' ') : raw);
  } catch {
    return undefined;
  }
}

/**
 * The pairs of `text` taken from the framework's own parse of it (Fastify's `request.query`, from fast-querystring),
 * so that the query is not decoded twice: `undefined` whenever that object may hold something other than
 * `queryPairs(text)`. That is when a name repeats (its order against other names is gone), a name is an array
 * index (objects list those first), a name or value still holds `%` or `+` (an escape the parser could not decode,
 * or a parser that decodes otherwise), a value is no string (another parser's nested objects or coerced types),
 * the pairs are not one per `&`-separated part (another delimiter, a limit on their number), or `text` starts with
 * `?`. The caller then reads `text` itself.
 */
export function queryPairsFromParsed(text: string, parsed: unknown): Array<[string, string]> | undefined {
  if (typeof parsed !== 'object' || parsed === null || text.charCodeAt(0) === 63 /* ? */) return undefined;
  const fields = parsed as Record<string, unknown>;
  const pairs: Array<[string, string]> = [];
  for (const name in fields) {
    const value = fields[name];
    if (typeof value !== 'string' || !decoded(value) || !decoded(name) || isDigit(name.charCodeAt(0))) return undefined;
    pairs.push([name, value]);
  }
  return pairs.length === partCount(text) ? pairs : undefined;
}

const decoded = (text: string) => text.indexOf('%') === -1 && text.indexOf('+') === -1;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The non-empty `&`-separated parts of `text`: what URLSearchParams makes a pair of. */
function partCount(text: string): number {
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}
