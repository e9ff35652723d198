import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Environments: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function EnvironmentsPage() {
  return (
    <Page title="Environments">
      <Empty>Environments are managed here.</Empty>
    </Page>
  );
}
