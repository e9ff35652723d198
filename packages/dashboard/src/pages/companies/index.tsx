import { EntityPage } from '../entities/entity-page.js';
import { COMPANIES } from '../entities/entity-kind.js';

/** Companies of the current environment, looked up by id: attributes, flags, specific targeting. */
export default function CompaniesPage({ params }: { params: Record<string, string | undefined> }) {
  return <EntityPage kind={COMPANIES} id={params['companyId']} />;
}
