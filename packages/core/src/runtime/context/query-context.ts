import { addIssue, invalidRequest, type Issues } from '../../http/http-error.js';
import { wellFormedJson } from '../../http/well-formed.js';
import { validate } from '../../http/validate.js';
import { parseContextText } from './context-json.js';
import { CONTEXT_JSON_MAX_BYTES, ContextSchema, type Context } from '../../schemas/context.js';

/**
 * Reads the evaluation context from the query of `/features/evaluated|enabled` (runtime-api.md, "Context input
 * rules"):
 *  1. `contextJson` carries the whole context as JSON, at most 16384 bytes decoded, sent at most once;
 *  2. legacy `context.a.b=v` parameters, including the browser SDK's indexed `context.user.roles.0=a`, which are
 *     rebuilt into arrays (reflag-clients.md decides: accept them, never 400 because of them);
 *  3. `contextJson` together with `context` or `context.*` is a 400.
 * A bare `context=<json>` (the form the browser SDK uses on `/sse/client`) is read like `contextJson`.
 */
export function contextFromQuery(pairs: ReadonlyArray<readonly [string, string]>): Context {
  // Counted rather than collected, and the legacy pairs listed only when the context comes from them: the SDKs'
  // usual query (one `contextJson`) is read on every evaluate request, and three lists per request were a tenth of
  // the route's allocations.
  let json: string | undefined;
  let jsons = 0;
  let bare: string | undefined;
  let bares = 0;
  let legacy = 0;
  for (const [name, value] of pairs) {
    if (name === 'contextJson') {
      jsons++;
      json ??= value;
    } else if (name === 'context') {
      bares++;
      bare ??= value;
    } else if (name.startsWith('context.')) legacy++;
  }
  if (jsons > 1) throw contextError('contextJson', 'contextJson must be sent at most once');
  if (jsons && (bares || legacy)) {
    throw contextError('contextJson', 'contextJson cannot be combined with context or context.* parameters');
  }
  if (bares > 1) throw contextError('context', 'context must be sent at most once');
  if (bares && legacy) throw contextError('context', 'context cannot be combined with context.* parameters');
  if (json !== undefined) return checkContext(parseContextJson(json, 'contextJson'), 'contextJson');
  if (bare !== undefined) return checkContext(parseContextJson(bare, 'context'), 'context');
  return checkContext(fromLegacy(pairs.filter(([name]) => name.startsWith('context.'))), 'context');
}

function contextError(path: string, message: string): Error {
  return invalidRequest(message, { [path]: [message] });
}

/** Parses a context JSON text; the size limit applies to the decoded text, in UTF-8 bytes. */
export function parseContextJson(text: string, name: string): unknown {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts need no byte count.
  const bytes = text.length * 3 <= CONTEXT_JSON_MAX_BYTES ? 0 : Buffer.byteLength(text, 'utf8');
  if (bytes > CONTEXT_JSON_MAX_BYTES) {
    throw contextError(name, `${name} is ${bytes} bytes; at most ${CONTEXT_JSON_MAX_BYTES} bytes are allowed`);
  }
  let value: unknown;
  try {
    value = parseContextText(text);
  } catch {
    throw contextError(name, `${name} is not valid JSON`);
  }
  // Lone surrogates become U+FFFD, as in JSON bodies: stored attributes hold them so, and a rule must match both.
  return wellFormedJson(text, value);
}

/** Checks the context rules; issue paths are prefixed with the parameter the context came from. */
export function checkContext(value: unknown, name: string): Context {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw contextError(name, 'The context must be a JSON object with optional user, company and other objects');
  }
  return validate<Context>(ContextSchema, value, 'context', name);
}

interface Node {
  values?: string[];
  children?: Map<string, Node>;
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/** Sets an own property even for `__proto__`, so a query can never reach an object's prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function fromLegacy(pairs: ReadonlyArray<readonly [string, string]>): unknown {
  const root: Node = { children: new Map() };
  const issues: Issues = {};
  for (const [name, value] of pairs) {
    const segments = name.slice('context.'.length).split('.');
    if (segments.some((s) => s === '')) {
      addIssue(issues, name, 'Empty path segment in a context parameter');
      continue;
    }
    let node = root;
    for (const segment of segments) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (!child) {
        child = {};
        node.children.set(segment, child);
      }
      node = child;
    }
    (node.values ??= []).push(value);
  }
  if (Object.keys(issues).length) throw invalidRequest('Invalid context parameters', issues);
  const context = (build(root, 'context', issues, true) ?? {}) as Record<string, unknown>;
  // Reflag's node SDK flattens an empty object to a present empty string (reflag-clients.md), so `{ other: {} }`
  // arrives as `context.other=`: for the three members that are objects, that is the empty object it was.
  for (const member of ENTITY_MEMBERS) if (context[member] === '') context[member] = {};
  return context;
}

const ENTITY_MEMBERS = ['user', 'company', 'other'] as const;

function build(node: Node, path: string, issues: Issues, isRoot = false): unknown {
  if (node.values && node.children) {
    addIssue(issues, path, 'Sent both as a value and as an object');
    throw invalidRequest('Invalid context parameters', issues);
  }
  if (node.values) return node.values.length === 1 ? node.values[0] : node.values;
  const children = node.children ?? new Map<string, Node>();
  const keys = [...children.keys()];
  // Indexed items (`roles.0`, `roles.1`, …) become an array when they run consecutively from 0; anything else stays
  // an object keyed by the index text, which a rule on `roles.1` still reaches.
  if (!isRoot && keys.length && keys.every((k) => INDEX.test(k))) {
    const indexes = keys.map(Number).sort((a, b) => a - b);
    if (indexes.every((n, i) => n === i)) return indexes.map((i) => build(children.get(String(i))!, `${path}.${i}`, issues));
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of children) setOwn(out, key, build(child, `${path}.${key}`, issues));
  return out;
}
