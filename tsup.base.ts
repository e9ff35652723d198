import { defineConfig } from 'tsup';

/** Every package builds the same way: ESM + CJS + .d.ts from src/index.ts, for Node 20. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
