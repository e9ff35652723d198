import { Page } from '../../components/page.js';
import { Empty } from '../../components/states.js';

export default function FlagPage({ params }: { params: Record<string, string | undefined> }) {
  return (
    <Page title={params['flagKey'] ?? 'Flag'}>
      <Empty>The flag's settings.</Empty>
    </Page>
  );
}
