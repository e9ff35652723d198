import type { Options } from 'tsup';
import base from '../../tsup.base';

// The CommonJS build needs `import.meta.url` too (native-sha256.ts resolves the optional addon from it): the shim
// derives it from __filename. Without it the CJS build would quietly fall back to the JS hash.
const options: Options = { ...base, shims: true };
export default options;
