import { Type, type Static } from '@sinclair/typebox';
import { IdSchema } from './common.js';

/** Organization header (management-api.md, "Organization header"). */
export const OrganizationHeaderSchema = Type.Object(
  { id: IdSchema, name: Type.String({ minLength: 1 }) },
  { additionalProperties: false, $id: 'OrganizationHeader' },
);
export type OrganizationHeader = Static<typeof OrganizationHeaderSchema>;
