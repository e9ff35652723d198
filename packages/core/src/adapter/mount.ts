import type { Flagmount } from '../create-flagmount.js';
import { createHandler, type CoreHandler } from '../http/handler.js';
import type { HostSignIn } from '../host/host-authenticate.js';
import type { Logger } from '../logger.js';
import { countOption, type CorsOptions } from '../options.js';
import type { Services } from '../services.js';
import type { MountOptions } from './mount-options.js';
import { normalizePrefix } from './mount-options.js';

export interface Mount {
  readonly prefix: string;
  readonly maxBodyBytes: number;
  readonly handle: CoreHandler;
  /** The instance's logger, for the rare failure of an adapter's own translation. */
  readonly logger: Logger;
}

/**
 * One mount of an instance: the instance's handler, or a handler narrowed to one route group or with its own
 * CORS and body limit when the adapter was given such options.
 */
export function createMount(instance: Flagmount, options: MountOptions = {}): Mount {
  const base = instance.services.options;
  const narrowed = options.management !== undefined || options.runtime !== undefined;
  const signIn = options.authenticate !== undefined || options.trustedOrigins !== undefined;
  const reconfigured = narrowed || signIn || options.cors !== undefined || options.maxBodyBytes !== undefined;
  const maxBodyBytes = countOption('maxBodyBytes', options.maxBodyBytes, base.maxBodyBytes);
  const { logger } = instance.services;
  const prefix = normalizePrefix(options.prefix);
  if (!reconfigured) return { prefix, maxBodyBytes, handle: instance.handler, logger };

  // A mount's CORS refines the instance's: fields it leaves out keep the instance's values, not the defaults.
  const cors = options.cors ? { ...base.cors, ...definedOnly(options.cors) } : base.cors;
  const services: Services = Object.freeze({
    ...instance.services,
    now: instance.services.now,
    options: { ...base, cors, maxBodyBytes, host: hostSignIn(options) },
  });
  const management = options.management ?? base.mount.management;
  const runtime = options.runtime ?? base.mount.runtime;
  const routes = instance.routes.filter((r) => (r.surface === 'management' ? management : runtime));
  return { prefix, maxBodyBytes, handle: createHandler(services, routes), logger };
}

function hostSignIn(options: MountOptions): HostSignIn {
  if (options.authenticate !== undefined && typeof options.authenticate !== 'function') {
    throw new TypeError('Flagmount mount option authenticate must be a function');
  }
  const trustedOrigins = (options.trustedOrigins ?? []).map((origin) => origin.toLowerCase().replace(/\/+$/, ''));
  return options.authenticate ? { authenticate: options.authenticate, trustedOrigins } : { trustedOrigins };
}

function definedOnly(cors: CorsOptions): CorsOptions {
  return Object.fromEntries(Object.entries(cors).filter(([, value]) => value !== undefined)) as CorsOptions;
}
