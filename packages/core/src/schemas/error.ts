import { Type, type Static } from '@sinclair/typebox';

export const ErrorCodeSchema = Type.Union(
  [
    'invalid_request',
    'not_found',
    'not_possible',
    'not_allowed',
    'not_available',
    'unknown_error',
    'unauthorized',
    'unauthenticated',
  ].map((code) => Type.Literal(code)),
);

/** The error body of every 4xx and 5xx (management-api.md, "Errors"; the runtime API uses it too). */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({ code: ErrorCodeSchema, message: Type.String() }),
    issues: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Field path (dot notation, "" for the root) to messages',
      }),
    ),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;
