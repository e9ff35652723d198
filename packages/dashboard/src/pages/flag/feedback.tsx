import { seg } from '../../api/client.js';
import type { FlagFeedback, FlagHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Loading } from '../../components/states.js';
import { Table } from '../../components/table.js';
import { useResource } from '../../components/use-resource.js';
import { dateTime } from '../../lib/format.js';
import { useWorkspace } from '../../workspace.js';

/** What users said about the flag (runtime `POST /feedback`): the mean score and each entry. */
export function Feedback({ flag }: { flag: FlagHeader }) {
  const { api } = useSession();
  const { app, envs } = useWorkspace();
  const feedback = useResource(() => api.get<FlagFeedback>(`apps/${seg(app.id)}/flags/${seg(flag.key)}/feedback`), [api, app.id, flag.key]);
  if (feedback.error) return <ApiErrorBox error={feedback.error} />;
  if (!feedback.data) return <Loading label="Loading feedback" />;
  const { data, scoreAverage, scoreCount } = feedback.data;
  const envName = (id: string) => envs.find((e) => e.id === id)?.name ?? id;
  return (
    <div>
      <p>{scoreCount ? `Average score ${scoreAverage?.toFixed(1)} from ${scoreCount} score${scoreCount === 1 ? '' : 's'}.` : 'No scores yet.'}</p>
      <Table
        caption={`Feedback about ${flag.name}`}
        rows={data}
        rowKey={(r) => r.id}
        empty="No feedback yet. The browser SDK's feedback widget or POST /feedback with this flag's key sends it."
        columns={[
          { key: 'when', label: 'When', render: (r) => dateTime(r.createdAt) },
          { key: 'env', label: 'Environment', render: (r) => envName(r.envId) },
          { key: 'user', label: 'User', render: (r) => r.userId },
          { key: 'score', label: 'Score', render: (r) => r.score ?? '—' },
          { key: 'comment', label: 'Comment', render: (r) => r.comment ?? <span class="muted">—</span> },
        ]}
      />
    </div>
  );
}
