import { useEffect, useRef } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { FlagChecks, FlagHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Loading } from '../../components/states.js';
import { useResource } from '../../components/use-resource.js';
import { ago } from '../../lib/format.js';
import { staleness } from '../../lib/staleness.js';
import { useWorkspace } from '../../workspace.js';
import 'uplot/dist/uPlot.min.css';

/** Checks and tracks per day in every environment (uPlot, loaded with the page), and why the flag is (not) stale. */
export function Activity({ flag, staleAfterDays }: { flag: FlagHeader; staleAfterDays: number }) {
  const { api } = useSession();
  const { app } = useWorkspace();
  const checks = useResource(() => api.get<FlagChecks>(`apps/${seg(app.id)}/flags/${seg(flag.key)}/checks`, { days: 30 }), [api, app.id, flag.key]);
  const s = staleness(flag, Date.now(), staleAfterDays);
  return (
    <div>
      <p>
        <span class={`badge ${s.label === 'stale' ? 'stale' : ''}`}>{s.label}</span> {s.reason}
      </p>
      <p class="muted">
        Last check {ago(flag.lastCheckAt)}; last track {ago(flag.lastTrackAt)}.
      </p>
      {checks.error ? <ApiErrorBox error={checks.error} /> : null}
      {checks.data ? <Chart data={checks.data} /> : checks.loading ? <Loading label="Loading activity" /> : null}
    </div>
  );
}

const COLOURS = ['#1f4fd1', '#b0201a', '#1d6b35', '#8a4b00', '#6b3fa0', '#4d5562'];

function Chart({ data }: { data: FlagChecks }) {
  const box = useRef<HTMLDivElement>(null);
  const days = data.data[0]?.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000) ?? [];
  const total = data.data.reduce((n, e) => n + e.days.reduce((m, d) => m + d.checkCount + d.trackCount, 0), 0);
  useEffect(() => {
    const el = box.current;
    if (!el || !days.length) return undefined;
    let plot: { destroy(): void } | undefined;
    let live = true;
    void import('uplot').then(({ default: UPlot }) => {
      if (!live) return;
      const series = data.data.flatMap((env, i) => [
        { label: `${env.envName} checks`, stroke: COLOURS[(2 * i) % COLOURS.length], width: 2 },
        { label: `${env.envName} tracks`, stroke: COLOURS[(2 * i + 1) % COLOURS.length], width: 2, dash: [6, 4] },
      ]);
      const values = data.data.flatMap((env) => [env.days.map((d) => d.checkCount), env.days.map((d) => d.trackCount)]);
      plot = new UPlot({ width: Math.min(900, el.clientWidth || 800), height: 240, series: [{}, ...series], axes: [{}, { label: 'per day' }] }, [days, ...values], el);
    });
    return () => {
      live = false;
      plot?.destroy();
    };
  }, [data]);
  return (
    <figure class="chart">
      <div ref={box} />
      <figcaption>
        Checks and tracks per day over the last {days.length} days (UTC), per environment{total === 0 ? ': none yet' : ''}.
      </figcaption>
      <table class="visually-hidden">
        <caption>Checks and tracks per environment, last {days.length} days</caption>
        <thead>
          <tr>
            <th scope="col">Environment</th>
            <th scope="col">Checks</th>
            <th scope="col">Tracks</th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((env) => (
            <tr key={env.envId}>
              <th scope="row">{env.envName}</th>
              <td>{env.days.reduce((n, d) => n + d.checkCount, 0)}</td>
              <td>{env.days.reduce((n, d) => n + d.trackCount, 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
