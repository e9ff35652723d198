export { FlagmountProvider, type FlagmountProviderOptions } from './provider.js';
