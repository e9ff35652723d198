/** What differs between the Users and the Companies page: names and paths only. */
export interface EntityKind {
  /** Page title and route: `Users` at `/users`. */
  title: 'Users' | 'Companies';
  route: '/users' | '/companies';
  /** API path segment (`…/envs/{envId}/users/{userId}`). */
  segment: 'users' | 'companies';
  /** The route parameter holding the id. */
  param: 'userId' | 'companyId';
  /** Singular, for sentences: "user", "company". */
  noun: 'user' | 'company';
  /** The runtime call that stores one, for the "not stored yet" hint. */
  storedBy: string;
}

export const USERS: EntityKind = { title: 'Users', route: '/users', segment: 'users', param: 'userId', noun: 'user', storedBy: 'POST /user' };
export const COMPANIES: EntityKind = { title: 'Companies', route: '/companies', segment: 'companies', param: 'companyId', noun: 'company', storedBy: 'POST /company' };
