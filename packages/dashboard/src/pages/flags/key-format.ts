import type { AppHeader } from '../../api/types.js';

type Format = AppHeader['flagKeyFormat'];

/** What each format asks for, with an example, as the create dialog explains it. */
export const KEY_FORMATS: Record<Format, { label: string; example: string }> = {
  custom: { label: 'any text without leading or trailing spaces', example: 'new-checkout' },
  pascalCase: { label: 'PascalCase: words joined, each capitalised, starting with a letter', example: 'NewCheckout' },
  camelCase: { label: 'camelCase: words joined, the first lower-case, starting with a letter', example: 'newCheckout' },
  snakeCaseUpper: { label: 'UPPER_SNAKE_CASE: capitals and digits joined by underscores', example: 'NEW_CHECKOUT' },
  snakeCaseLower: { label: 'lower_snake_case: lower-case letters and digits joined by underscores', example: 'new_checkout' },
  kebabCaseUpper: { label: 'UPPER-KEBAB-CASE: capitals and digits joined by hyphens', example: 'NEW-CHECKOUT' },
  kebabCaseLower: { label: 'lower-kebab-case: lower-case letters and digits joined by hyphens', example: 'new-checkout' },
};

const words = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/** The key a name suggests in the app's format ("New checkout" → new-checkout, NewCheckout, …). */
export function keyFromName(name: string, format: Format): string {
  const w = words(name);
  if (!w.length) return '';
  // Keys start with a letter in every strict format.
  if (/^\d/.test(w[0]!) && format !== 'custom') w.unshift('flag');
  switch (format) {
    case 'pascalCase':
      return w.map(cap).join('');
    case 'camelCase':
      return w[0]!.toLowerCase() + w.slice(1).map(cap).join('');
    case 'snakeCaseUpper':
      return w.join('_').toUpperCase();
    case 'snakeCaseLower':
      return w.join('_').toLowerCase();
    case 'kebabCaseUpper':
      return w.join('-').toUpperCase();
    case 'kebabCaseLower':
    case 'custom':
      return w.join('-').toLowerCase();
  }
}
