import type { FlagEvaluation } from '@flagmount/engine';
import { ingestChecks } from '../runtime/ingest/routes.js';
import type { Context } from '../schemas/context.js';
import type { FeatureEventBody } from '../schemas/feature-event.js';
import type { Services } from '../services.js';

/** A store that is down fails every evaluation's checks: one warning a minute says so, not one per request. */
const WARN_EVERY_MS = 60_000;
const lastWarning = new WeakMap<Services, number>();

/**
 * The check event a Reflag client would send for this answer. OFREP carries one value per flag, so the event names
 * the value the caller got: a config payload is a config check (`{ key, payload }`), a boolean an `isEnabled` check
 * (an exposure when true). `kind` is `check` for one flag asked for, `evaluate` for a bulk answer, as the node SDK
 * reports a read flag and an evaluated one.
 */
function checkEvent(evaluation: FlagEvaluation, context: Context, kind: 'check' | 'evaluate', payloadSent: boolean): FeatureEventBody {
  const config = evaluation.config;
  return payloadSent && config
    ? {
        action: `${kind}-config` as const,
        key: evaluation.key,
        targetingVersion: config.version,
        evalContext: context,
        evalResult: { key: config.key, payload: config.payload },
        evalRuleResults: [...config.ruleEvaluationResults],
        evalMissingFields: [...config.missingContextFields],
      }
    : {
        action: kind,
        key: evaluation.key,
        targetingVersion: evaluation.targetingVersion,
        evalContext: context,
        evalResult: evaluation.isEnabled,
        evalRuleResults: [...evaluation.ruleEvaluationResults],
        evalMissingFields: [...evaluation.missingContextFields],
      };
}

export interface AnsweredFlag {
  evaluation: FlagEvaluation;
  /** Whether the answer's value was the config payload (else `isEnabled`). */
  payloadSent: boolean;
}

/**
 * Records OFREP evaluations as checks, through the same ingestion path as `POST /features/events`: OFREP providers
 * send no events of their own, so without this a flag read only over OFREP would look unused (and stale). The
 * answer does not wait for the commit: checks are analytics, and an evaluation keeps answering while the store is
 * down. What the bounded ingestion queue refuses is dropped, with a warning.
 */
export function recordChecks(services: Services, envId: string, context: Context, kind: 'check' | 'evaluate', answered: readonly AnsweredFlag[]): void {
  if (answered.length === 0) return;
  const events = answered.map((a) => checkEvent(a.evaluation, context, kind, a.payloadSent));
  let committed: Promise<void>;
  try {
    committed = ingestChecks(services, envId, events);
  } catch (error) {
    committed = Promise.reject(error);
  }
  committed.catch((error: unknown) => {
    const now = Date.now();
    if (now - (lastWarning.get(services) ?? -Infinity) < WARN_EVERY_MS) return;
    lastWarning.set(services, now);
    services.logger.warn('flagmount: could not record the checks of OFREP evaluations (further failures in the next minute are not logged)', { error });
  });
}
