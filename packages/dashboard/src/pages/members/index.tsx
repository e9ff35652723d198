import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Members: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function MembersPage() {
  return (
    <Page title="Members">
      <Empty>Members are managed here.</Empty>
    </Page>
  );
}
