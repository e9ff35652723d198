import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Audit: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function AuditPage() {
  return (
    <Page title="Audit">
      <Empty>Audit are managed here.</Empty>
    </Page>
  );
}
