import { EntityPage } from '../entities/entity-page.js';
import { USERS } from '../entities/entity-kind.js';

/** Users of the current environment, looked up by id: attributes, flags, specific targeting. */
export default function UsersPage({ params }: { params: Record<string, string | undefined> }) {
  return <EntityPage kind={USERS} id={params['userId']} />;
}
