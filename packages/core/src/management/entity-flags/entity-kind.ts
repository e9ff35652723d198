import { CompanyParamsSchema, UserParamsSchema } from '../../schemas/entity-flag.js';
import type { EntityType } from '../../storage/records.js';

/** What differs between the user and the company variant of an entity route: names only. */
export interface EntityKind {
  type: EntityType;
  /** Path segment: `users` / `companies`. */
  segment: 'users' | 'companies';
  /** Path parameter: `userId` / `companyId`. */
  param: 'userId' | 'companyId';
  /** For operation ids: `User` / `Company`. */
  label: 'User' | 'Company';
  params: typeof UserParamsSchema | typeof CompanyParamsSchema;
}

export const USER: EntityKind = { type: 'user', segment: 'users', param: 'userId', label: 'User', params: UserParamsSchema };
export const COMPANY: EntityKind = { type: 'company', segment: 'companies', param: 'companyId', label: 'Company', params: CompanyParamsSchema };

export const entityIdOf = (kind: EntityKind, params: Record<string, string>): string => params[kind.param]!;
