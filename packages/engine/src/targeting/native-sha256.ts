import { createRequire } from 'node:module';
import type { Sha256Native } from '@flagmount/sha256-native';

export type { Sha256Native };

type Loader = typeof import('@flagmount/sha256-native');

/**
 * The optional SHA-NI addon, or null. It is an optional dependency: its native build may have failed or been
 * skipped, the CPU may lack SHA-NI, or FLAGMOUNT_NATIVE_HASH=0 may turn it off; the package's loader answers null
 * for all of those, and this adds the package itself being absent. Nothing here throws: the JS hash is always there.
 *
 * `createRequire`, not the module's own `require`: in the ESM build esbuild swaps `require` for a stub that throws,
 * and in the CJS build tsup's shim supplies `import.meta.url` (tsup.config.ts).
 */
export function loadNativeSha256(): Sha256Native | null {
  try {
    const loader = createRequire(import.meta.url)('@flagmount/sha256-native') as Loader;
    return loader.load();
  } catch {
    return null;
  }
}
