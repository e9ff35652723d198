import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Stages: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function StagesPage() {
  return (
    <Page title="Stages">
      <Empty>Stages are managed here.</Empty>
    </Page>
  );
}
