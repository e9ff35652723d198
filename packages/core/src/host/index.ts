export type { HostPerson, Person, Role } from './person.js';
export { ROLE_SCOPES } from './person.js';
export type { HostAuthenticate, HostSignIn } from './host-authenticate.js';
