import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';

// Every SDK request hashes its key to find the environment: the one-shot `crypto.hash` (Node ≥ 20.12) skips the
// Hash object and costs about half as much.
export const sha256Hex: (value: string) => string =
  typeof crypto.hash === 'function'
    ? (value) => crypto.hash('sha256', value, 'hex')
    : (value) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Constant-time comparison of two secrets of any length (hashing first evens out the lengths). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** `Authorization: Bearer <token>` → token; scheme is case-insensitive. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
