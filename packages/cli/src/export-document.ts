/** The export document's types come from the core's schema (one schema, read by the API and the CLI alike). */
export type { ExportDocument, ExportFlag, ExportTargeting, ImportChange, ImportResponse } from '@flagmount/core';
