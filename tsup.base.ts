import type { Options } from 'tsup';

/**
 * Every package builds the same way: ESM + CJS + .d.ts from src/index.ts, for Node 20. tsup lives in tools/build
 * (installed by `npm run build`), so this file imports only its types: a plain object is what `defineConfig` returns.
 */
const base: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
};
export default base;
