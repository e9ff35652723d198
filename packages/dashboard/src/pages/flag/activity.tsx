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

/** Checks, exposures and tracks per day in every environment (uPlot, loaded with the page), and why the flag is (not) stale. */
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

/**
 * One colour per series (environment × kind), each at least 4.5:1 on the white chart so that lines and legend
 * swatches read like text; the kind is also told by the line (checks solid, exposures dotted, tracks dashed), not by
 * colour alone.
 */
const COLOURS = ['#1f4fd1', '#1d6b35', '#b0201a', '#6b3fa0', '#8a4b00', '#4d5562', '#0b6e79', '#a1266f', '#5c5c00'];
const KINDS = [
  { name: 'checks', count: (d: Day) => d.checkCount, dash: undefined },
  { name: 'exposures', count: (d: Day) => d.exposureCount, dash: [2, 3] },
  { name: 'tracks', count: (d: Day) => d.trackCount, dash: [8, 4] },
] as const;
type Day = FlagChecks['data'][number]['days'][number];
const sum = (days: Day[], count: (d: Day) => number) => days.reduce((n, d) => n + count(d), 0);

function Chart({ data }: { data: FlagChecks }) {
  const box = useRef<HTMLDivElement>(null);
  const days = data.data[0]?.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000) ?? [];
  const total = data.data.reduce((n, e) => n + sum(e.days, (d) => d.checkCount + d.trackCount), 0);
  useEffect(() => {
    const el = box.current;
    if (!el || !days.length) return undefined;
    let plot: { destroy(): void } | undefined;
    let live = true;
    void import('uplot').then(({ default: UPlot }) => {
      if (!live) return;
      const series = data.data.flatMap((env, i) =>
        KINDS.map((kind, k) => ({
          label: `${env.envName} ${kind.name}`,
          stroke: COLOURS[(KINDS.length * i + k) % COLOURS.length],
          width: 2,
          ...(kind.dash ? { dash: [...kind.dash] } : {}),
        })),
      );
      const values = data.data.flatMap((env) => KINDS.map((kind) => env.days.map(kind.count)));
      // Days are UTC days: the axis and the legend say so, in every time zone of the reader.
      const opts = {
        width: Math.min(900, el.clientWidth || 800),
        height: 240,
        tzDate: (ts: number) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [{ label: 'Day (UTC)' }, ...series],
        axes: [{}, { label: 'per day' }],
      };
      plot = new UPlot(opts, [days, ...values], el);
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
        Checks, exposures (checks answered “on”) and tracks per day over the last {days.length} days (UTC), per environment{total === 0 ? ': none yet' : ''}.
      </figcaption>
      <table class="visually-hidden">
        <caption>Checks, exposures and tracks per environment, last {days.length} days</caption>
        <thead>
          <tr>
            <th scope="col">Environment</th>
            <th scope="col">Checks</th>
            <th scope="col">Exposures</th>
            <th scope="col">Tracks</th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((env) => (
            <tr key={env.envId}>
              <th scope="row">{env.envName}</th>
              {KINDS.map((kind) => (
                <td key={kind.name}>{sum(env.days, kind.count)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
