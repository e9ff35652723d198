import { memoryStorage } from '@flagmount/storage-memory';
import { describeStorageConformance } from '@flagmount/storage-conformance';

describeStorageConformance('memory', { create: async () => memoryStorage() });
