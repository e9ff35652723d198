import { defineConfig } from 'tsup';
import base from '../../tsup.base';

/** The library entry as every package builds it, plus the `flagmount` executable (ESM, with its shebang). */
export default defineConfig([
  base as object,
  { entry: ['src/bin.ts'], format: ['esm'], dts: false, clean: false, sourcemap: true, target: 'node20', banner: { js: '#!/usr/bin/env node' } },
]);
