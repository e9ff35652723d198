/**
 * A `Vary` header holding the host's fields and ours, each once (names compare without case). Middleware ahead of
 * the mount may already vary the answer (compression sets `Accept-Encoding`); setting ours over it would let a
 * cache serve a gzipped answer to a client that cannot read it.
 */
export function mergeVary(host: string | number | readonly string[] | undefined, ours: string): string {
  if (host === undefined) return ours;
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const part of [...(Array.isArray(host) ? host : [String(host)]), ours].join(',').split(',')) {
    const field = part.trim();
    if (!field || seen.has(field.toLowerCase())) continue;
    if (field === '*') return '*';
    seen.add(field.toLowerCase());
    fields.push(field);
  }
  return fields.join(', ');
}
