import { ApiError, type ApiClient } from './client.js';
import type { PutTargetingRequest, TargetingMutation } from './types.js';

/** The write was refused because the targeting changed since `ifVersion` was loaded. */
export const isConflict = (error: unknown) => error instanceof ApiError && error.code === 'not_possible' && error.issues['ifVersion'] !== undefined;

/**
 * PUT a flag's targeting with `ifVersion` (optimistic concurrency). A server from before `ifVersion` refuses the
 * unknown property (invalid_request on `ifVersion` alone): the same write then goes without it, as that server
 * would have taken it anyway.
 */
export async function putTargeting(api: ApiClient, path: string, body: PutTargetingRequest): Promise<TargetingMutation> {
  try {
    return await api.send<TargetingMutation>('PUT', path, body);
  } catch (error) {
    const unknownField = error instanceof ApiError && error.code === 'invalid_request' && Object.keys(error.issues).join() === 'ifVersion';
    if (!unknownField || body.ifVersion === undefined) throw error;
    const { ifVersion: _, ...plain } = body;
    return api.send<TargetingMutation>('PUT', path, plain);
  }
}
