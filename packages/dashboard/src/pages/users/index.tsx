import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

/** Users: a placeholder until its page lands (see routes.tsx for the conventions). */
export default function UsersPage() {
  return (
    <Page title="Users">
      <Empty>Users are managed here.</Empty>
    </Page>
  );
}
