import type { FlagKeyFormat } from '../../storage/records.js';

/**
 * The key formats of `flagKeyFormat`, checked when a flag is created (not when the app's format changes later:
 * existing keys are in code and cannot be renamed). Words are letters and digits; a key starts with a letter.
 */
const FORMATS: Record<Exclude<FlagKeyFormat, 'custom'>, { pattern: RegExp; example: string }> = {
  pascalCase: { pattern: /^[A-Z][a-zA-Z0-9]*$/, example: 'NewCheckout' },
  camelCase: { pattern: /^[a-z][a-zA-Z0-9]*$/, example: 'newCheckout' },
  snakeCaseUpper: { pattern: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, example: 'NEW_CHECKOUT' },
  snakeCaseLower: { pattern: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, example: 'new_checkout' },
  kebabCaseUpper: { pattern: /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$/, example: 'NEW-CHECKOUT' },
  kebabCaseLower: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, example: 'new-checkout' },
};

const CONTROL = /\p{Cc}/u;

/** `undefined` when `key` fits `format`, else a message naming the format with an example. */
export function flagKeyFormatProblem(key: string, format: FlagKeyFormat): string | undefined {
  if (format === 'custom') {
    // Any key, but not one a person cannot see: surrounding whitespace or control characters break code lookups.
    if (key.trim() !== key) return 'must not start or end with whitespace';
    // Category Cc: C0, DEL and C1 (U+0080–U+009F, among them U+0085, which `trim()` keeps).
    if (CONTROL.test(key)) return 'must not contain control characters';
    return undefined;
  }
  const { pattern, example } = FORMATS[format];
  return pattern.test(key) ? undefined : `must be in ${format} (e.g. ${example}), the app's flagKeyFormat`;
}
