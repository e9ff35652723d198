import { fileURLToPath } from 'node:url';

/**
 * Where the built dashboard lives: `index.html` and `assets/*` (content-hashed names). The core reads these
 * files when `createFlagmount({ dashboard: true })`; it never imports UI code.
 */
export const distDir = fileURLToPath(new URL('./dist/', import.meta.url));
