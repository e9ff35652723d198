export * from './mount-options.js';
export * from './mount.js';
export * from './node-http.js';
export { mergeVary } from '../http/vary.js';
export * from './request-binding.js';
export * from './operator.js';
