import { FormatRegistry } from '@sinclair/typebox';

// TypeBox ships no string formats; register the ones the specs use, once, before any schema is compiled.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time')) {
    FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
  }
  if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => EMAIL.test(v));
  if (!FormatRegistry.Has('uri')) {
    FormatRegistry.Set('uri', (v) => {
      try {
        return Boolean(new URL(v).protocol);
      } catch {
        return false;
      }
    });
  }
}

registerFormats();
