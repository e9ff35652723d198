import { BOOTSTRAP_ORG_ID } from '../bootstrap.js';
import type { Flagmount } from '../create-flagmount.js';
import { authenticate } from '../http/authenticate.js';
import { createHandler, type CoreHandler } from '../http/handler.js';
import type { Principal } from '../http/route.js';
import { ConflictError } from '../storage/errors.js';
import type { ManagementKeyRecord } from '../storage/records.js';

/** Who runs the management routes through an operator handler: recorded as the audit actor (`cli:alice`). */
export interface Operator {
  id: string;
  name: string;
}

/**
 * A handler for someone who holds the store itself (the CLI on `--db` or `--pg`): the management routes run as an
 * admin of the store's organisation, with no key to present — whoever can open the database can change it anyway.
 * Routes, validation, audit and versions are the very ones a request over HTTP goes through; the runtime routes
 * still check SDK keys. A store without an organisation gets the one bootstrap would create, so that a setup can
 * be imported into an empty store.
 */
export async function createOperatorHandler(instance: Flagmount, operator: Operator): Promise<CoreHandler> {
  const { storage } = instance.services;
  let [org] = await storage.organizations.list();
  if (!org) {
    const created = { id: BOOTSTRAP_ORG_ID, name: 'My organization', createdAt: instance.services.now().toISOString() };
    await storage.organizations.insert(created).catch((error: unknown) => {
      if (!(error instanceof ConflictError)) throw error;
    });
    [org] = await storage.organizations.list();
  }
  const key: ManagementKeyRecord = {
    id: operator.id,
    orgId: org!.id,
    name: operator.name,
    scopes: ['admin'],
    hash: '',
    prefix: '',
    createdAt: org!.createdAt,
    lastUsedAt: null,
    revokedAt: null,
  };
  const principal: Principal = { kind: 'management', key };
  return createHandler(instance.services, instance.routes, (services, request, requirement, params) =>
    requirement.kind === 'management' ? principal : authenticate(services, request, requirement, params),
  );
}
