import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Companies: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function CompaniesPage() {
  return (
    <Page title="Companies">
      <Empty>Companies are managed here.</Empty>
    </Page>
  );
}
