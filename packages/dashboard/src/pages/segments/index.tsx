import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Segments: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function SegmentsPage() {
  return (
    <Page title="Segments">
      <Empty>Segments are managed here.</Empty>
    </Page>
  );
}
