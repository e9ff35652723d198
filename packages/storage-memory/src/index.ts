export { memoryStorage, type MemoryStorageOptions } from './storage.js';
