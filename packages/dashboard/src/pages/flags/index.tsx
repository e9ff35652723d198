import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

export default function FlagsPage() {
  return (
    <Page title="Flags">
      <Empty>Flags are listed here.</Empty>
    </Page>
  );
}
