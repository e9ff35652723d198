/** The export document's types come from the core's schema (one schema, read by the API and the CLI alike). */
export type { ExportDocument, ExportFlag, ExportSchedule, ExportTargeting, ExportTargetingBody, ImportChange, ImportResponse } from '@flagmount/core';
