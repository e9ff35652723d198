import type { Flagmount } from '../create-flagmount.js';
import { createHandler, type CoreHandler } from '../http/handler.js';
import { resolveOptions } from '../options.js';
import type { Services } from '../services.js';
import type { MountOptions } from './mount-options.js';
import { normalizePrefix } from './mount-options.js';

export interface Mount {
  readonly prefix: string;
  readonly maxBodyBytes: number;
  readonly handle: CoreHandler;
}

/**
 * One mount of an instance: the instance's handler, or a handler narrowed to one route group or with its own
 * CORS and body limit when the adapter was given such options.
 */
export function createMount(instance: Flagmount, options: MountOptions = {}): Mount {
  const base = instance.services.options;
  const narrowed = options.management !== undefined || options.runtime !== undefined;
  const reconfigured = narrowed || options.cors !== undefined || options.maxBodyBytes !== undefined;
  const maxBodyBytes = options.maxBodyBytes ?? base.maxBodyBytes;
  if (!reconfigured) return { prefix: normalizePrefix(options.prefix), maxBodyBytes, handle: instance.handler };

  const cors = options.cors ? resolveOptions({ storage: instance.services.storage, cors: options.cors }).cors : base.cors;
  const services: Services = Object.freeze({
    ...instance.services,
    now: instance.services.now,
    options: { ...base, cors, maxBodyBytes },
  });
  const management = options.management ?? base.mount.management;
  const runtime = options.runtime ?? base.mount.runtime;
  const routes = instance.routes.filter((r) => (r.surface === 'management' ? management : runtime));
  return { prefix: normalizePrefix(options.prefix), maxBodyBytes, handle: createHandler(services, routes) };
}
