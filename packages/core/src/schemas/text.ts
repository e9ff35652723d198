import { FormatRegistry, Kind, Type, TypeRegistry, type StringOptions, type TUnsafe } from '@sinclair/typebox';

/**
 * A string whose length limits count characters (Unicode code points), as the specs' "1..128 characters" mean and
 * as JSON Schema's minLength/maxLength are defined. TypeBox's own string check counts UTF-16 code units, so an
 * emoji (two units) counted twice: a 128-emoji name failed "at most 255" and a 5-emoji promptId passed "at least
 * 10". The schema still reads as `{ type: 'string', minLength, maxLength }` in the OpenAPI document.
 */
export const TEXT_KIND = 'FlagmountText';

export type TextOptions = Pick<StringOptions, 'minLength' | 'maxLength' | 'format' | 'description' | 'default'>;

/** Characters in `text`: a surrogate pair is one; a lone surrogate counts as one, as it does in JSON Schema. */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Whether `value` is a string within the schema's limits (in characters) and of its format. */
export function textFits(schema: TextOptions, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const { minLength = 0, maxLength = Infinity } = schema;
  // Characters are at most the UTF-16 length and at least half of it: count only when the units cannot decide.
  const units = value.length;
  if (units < minLength || Math.ceil(units / 2) > maxLength) return false;
  if (units > maxLength || (minLength > 1 && units < 2 * minLength)) {
    const characters = codePointLength(value);
    if (characters < minLength || characters > maxLength) return false;
  }
  if (schema.format === undefined) return true;
  const format = FormatRegistry.Get(schema.format);
  return format === undefined || format(value);
}

/** Why `value` does not fit, worded like TypeBox's own string messages. */
export function textMessage(schema: TextOptions, value: unknown): string {
  if (typeof value !== 'string') return 'Expected string';
  const n = codePointLength(value);
  if (schema.minLength !== undefined && n < schema.minLength) return `Expected string length greater or equal to ${schema.minLength}`;
  if (schema.maxLength !== undefined && n > schema.maxLength) return `Expected string length less or equal to ${schema.maxLength}`;
  return `Expected string to match '${schema.format}' format`;
}

if (!TypeRegistry.Has(TEXT_KIND)) TypeRegistry.Set<TextOptions>(TEXT_KIND, (schema, value) => textFits(schema, value));

/** A string schema whose length limits count characters. */
export function Text(options: TextOptions): TUnsafe<string> {
  return Type.Unsafe<string>({ ...options, type: 'string', [Kind]: TEXT_KIND });
}
