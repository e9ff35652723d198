/**
 * `JSON.parse` for an evaluation context, without V8's internalisation of short strings.
 *
 * V8's parser internalises every key and every string value of up to 10 characters: each is looked up in the
 * isolate's string table, a large hash table that is cold by the time a request arrives. A context is mostly such
 * strings (`{"user":{"id":"user-42","plan":"pro"}}`), and under load those lookups were ~3 % of the evaluate
 * route's CPU (perf, 2026-11-24). Here keys come from a small table of keys seen before, and values are plain
 * slices of the text.
 *
 * Only the plain form is read here: objects, arrays, strings without escapes, numbers, `true`, `false`, `null`.
 * Anything else (an escape, a control character, a `__proto__` key, deep nesting, and every syntax error) makes
 * the whole text go to `JSON.parse`, so the result, and the error for invalid JSON, is always `JSON.parse`'s (a
 * property test holds them equal).
 */
export function parseContextText(text: string): unknown {
  const parser = new Parser(text);
  const value = parser.value(0);
  if (value === BAIL || parser.skip() !== text.length) return JSON.parse(text) as unknown;
  return value;
}

const BAIL: unique symbol = Symbol('bail');

/** Deeper than this, `JSON.parse` reads it (and no recursion here can exhaust the stack). */
const MAX_DEPTH = 32;

/**
 * Keys seen before, each as the string a property store would use. A key's first use is checked against
 * `Object.prototype` (`__proto__` is a setter, and a frozen prototype turns `toString` into a read-only slot):
 * such keys go to `JSON.parse`, which defines properties rather than assigning them.
 */
const keys = new Map<string, string>();
const MAX_KEYS = 1024;

function keyFor(text: string): string | undefined {
  const known = keys.get(text);
  if (known !== undefined) return known;
  if (text in Object.prototype) return undefined;
  if (keys.size < MAX_KEYS) keys.set(text, text);
  return text;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The keys of the last texts by position (first key, second key…), each a checked key of `keys`. */
const lastKeys: Array<string | undefined> = [];
const MAX_SLOTS = 64;

class Parser {
  at = 0;
  /** Keys read so far. */
  keyCount = 0;

  constructor(private readonly text: string) {}

  /** Moves past JSON whitespace; returns the position of the next character. */
  skip(): number {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      at++;
    }
    return (this.at = at);
  }

  value(depth: number): unknown {
    const c = this.text.charCodeAt(this.skip());
    if (c === QUOTE) return this.string();
    if (c === 0x7b /* { */) return depth < MAX_DEPTH ? this.object(depth + 1) : BAIL;
    if (c === 0x5b /* [ */) return depth < MAX_DEPTH ? this.array(depth + 1) : BAIL;
    if (c === 0x74 /* t */) return this.word('true', true);
    if (c === 0x66 /* f */) return this.word('false', false);
    if (c === 0x6e /* n */) return this.word('null', null);
    return this.number();
  }

  private object(depth: number): unknown {
    const text = this.text;
    const out: Record<string, unknown> = {};
    this.at++;
    if (text.charCodeAt(this.skip()) === 0x7d /* } */) {
      this.at++;
      return out;
    }
    for (;;) {
      if (text.charCodeAt(this.skip()) !== QUOTE) return BAIL;
      const key = this.key();
      if (key === undefined || text.charCodeAt(this.skip()) !== COLON) return BAIL;
      this.at++;
      const item = this.value(depth);
      if (item === BAIL) return BAIL;
      out[key] = item;
      const next = text.charCodeAt(this.skip());
      this.at++;
      if (next === 0x7d /* } */) return out;
      if (next !== COMMA) return BAIL;
    }
  }

  private array(depth: number): unknown {
    const text = this.text;
    const out: unknown[] = [];
    this.at++;
    if (text.charCodeAt(this.skip()) === 0x5d /* ] */) {
      this.at++;
      return out;
    }
    for (;;) {
      const item = this.value(depth);
      if (item === BAIL) return BAIL;
      out.push(item);
      const next = text.charCodeAt(this.skip());
      this.at++;
      if (next === 0x5d /* ] */) return out;
      if (next !== COMMA) return BAIL;
    }
  }

  /**
   * The key at `at` (its opening quote). The n-th key of a text is usually the n-th key of the last one (an SDK
   * sends the same attributes in the same order): comparing it in place makes no string and no table lookup.
   */
  private key(): string | undefined {
    const text = this.text;
    const slot = this.keyCount++;
    const last = slot < MAX_SLOTS ? lastKeys[slot] : undefined;
    if (last !== undefined && text.charCodeAt(this.at + 1 + last.length) === QUOTE && text.startsWith(last, this.at + 1)) {
      this.at += last.length + 2;
      return last;
    }
    const raw = this.string();
    if (raw === BAIL) return undefined;
    const key = keyFor(raw);
    if (key !== undefined && slot < MAX_SLOTS) lastKeys[slot] = key;
    return key;
  }

  /** A string at `at` (its opening quote) with neither escapes nor control characters, else BAIL. */
  private string(): string | typeof BAIL {
    const text = this.text;
    const start = this.at + 1;
    let at = start;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === QUOTE) break;
      // NaN (the end of the text) is not >= 0x20 either.
      if (c === BACKSLASH || !(c >= 0x20)) return BAIL;
      at++;
    }
    this.at = at + 1;
    return text.slice(start, at);
  }

  private word(word: string, value: boolean | null): unknown {
    if (!this.text.startsWith(word, this.at)) return BAIL;
    this.at += word.length;
    return value;
  }

  /** JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
  private number(): unknown {
    const text = this.text;
    const start = this.at;
    let at = start;
    if (text.charCodeAt(at) === 0x2d /* - */) at++;
    const first = text.charCodeAt(at);
    if (first === 0x30 /* 0 */) at++;
    else if (first >= 0x31 && first <= 0x39) at = digits(text, at + 1);
    else return BAIL;
    if (text.charCodeAt(at) === 0x2e /* . */) {
      const end = digits(text, at + 1);
      if (end === at + 1) return BAIL;
      at = end;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45 /* e E */) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 0x2b || sign === 0x2d) at++;
      const end = digits(text, at);
      if (end === at) return BAIL;
      at = end;
    }
    this.at = at;
    // The same decimal-to-double conversion as JSON.parse's.
    return Number(text.slice(start, at));
  }
}

function digits(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c < 0x30 || c > 0x39 || c !== c) return at;
    at++;
  }
}
