import { Type } from '@sinclair/typebox';
import { defineRoute, raw } from '../http/route.js';
import { documented } from '../openapi/annotations.js';
import { sdkEnvironment } from '../runtime/environment.js';
import { answerWithEtag, etagDocs } from './etag.js';
import { ofrepErrorResponse } from './errors.js';

/**
 * The shortest polling interval a client provider may use for bulk evaluation. Bulk answers are computed from the
 * snapshot in memory and a repeat answers 304, so a second is cheap; OFREP's web provider polls every 30 s by default.
 */
export const OFREP_MIN_POLLING_INTERVAL_MS = 1000;

export const OfrepConfigurationSchema = Type.Object(
  {
    name: Type.String({ description: 'The flag management system: "flagmount"' }),
    capabilities: Type.Object({
      cacheInvalidation: Type.Object({
        polling: Type.Object({
          enabled: Type.Boolean({ description: 'Bulk evaluation may be polled (with If-None-Match)' }),
          minPollingIntervalMs: Type.Number({ description: 'Providers poll no more often than this' }),
        }),
      }),
      flagEvaluation: Type.Object({
        supportedTypes: Type.Array(
          Type.Union(['boolean', 'string', 'int', 'float', 'object'].map((t) => Type.Literal(t))),
          { description: 'Every OpenFeature type: booleans from isEnabled, the others from config payloads' },
        ),
      }),
    }),
  },
  { $id: 'OfrepConfiguration' },
);

const CONFIGURATION = JSON.stringify({
  name: 'flagmount',
  capabilities: {
    cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: OFREP_MIN_POLLING_INTERVAL_MS } },
    flagEvaluation: { supportedTypes: ['boolean', 'string', 'int', 'float', 'object'] },
  },
});

const configuration = defineRoute({
  method: 'GET',
  path: '/ofrep/v1/configuration',
  operationId: 'ofrepConfiguration',
  summary: "OFREP: the provider configuration (what Flagmount supports, how often providers may poll)",
  surface: 'runtime',
  tags: ['OFREP'],
  // The same keys as the evaluations: a provider opts in with the headers it already sends.
  auth: { kind: 'sdk', keys: 'any' },
  response: OfrepConfigurationSchema,
  errorResponse: ofrepErrorResponse,
  handle({ principal, request }) {
    sdkEnvironment(principal);
    return raw(answerWithEtag(request, CONFIGURATION));
  },
});

export const ofrepConfigurationRoute = documented(configuration, etagDocs({ description: 'The configuration', schema: OfrepConfigurationSchema }));
