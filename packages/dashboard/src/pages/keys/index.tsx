import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Keys: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function KeysPage() {
  return (
    <Page title="Keys">
      <Empty>Keys are managed here.</Empty>
    </Page>
  );
}
