import type { PreviewCounts, TargetingPreview } from '../../api/types.js';

const KINDS = [
  ['users', 'Users', 'user'],
  ['companies', 'Companies', 'company'],
] as const;

function Samples({ ids, label }: { ids: string[]; label: string }) {
  if (!ids.length) return null;
  return (
    <p>
      {label}: {ids.map((id, i) => (
        <span key={id}>
          {i ? ', ' : ''}
          <code>{id}</code>
        </span>
      ))}
    </p>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Counts({ counts, title, noun }: { counts: PreviewCounts; title: string; noun: string }) {
  return (
    <div class="impact-kind">
      <h4>{title}</h4>
      <dl class="impact-counts">
        <dt>Stored</dt>
        <dd>{counts.total}</dd>
        <dt>Enabled now → after</dt>
        <dd>
          {counts.enabledNow} → {counts.enabledAfter}
        </dd>
        <dt>Turned on</dt>
        <dd>{counts.turnedOn}</dd>
        <dt>Turned off</dt>
        <dd>{counts.turnedOff}</dd>
      </dl>
      <Samples ids={counts.sample.turnedOn} label={`Some ${noun} ids turned on`} />
      <Samples ids={counts.sample.turnedOff} label={`Some ${noun} ids turned off`} />
      {!counts.turnedOn && !counts.turnedOff ? <p class="muted">No stored {noun} changes.</p> : null}
      {counts.turnedOn + counts.turnedOff > counts.sample.turnedOn.length + counts.sample.turnedOff.length ? (
        <p class="hint">The ids are a sample: {plural(counts.turnedOn + counts.turnedOff, noun, noun === 'company' ? 'companies' : 'users')} change in all.</p>
      ) : null}
    </div>
  );
}

/**
 * Who the proposed targeting would turn on and off among the stored users and companies (evaluated by the server
 * with their stored attributes). Announced politely: it answers the "Preview" button.
 */
export function ImpactPreview({ preview, envName }: { preview: TargetingPreview; envName: string }) {
  return (
    <section class="impact-preview" aria-label={`Impact preview in ${envName}`} aria-live="polite">
      <h3>Impact of these changes in {envName}</h3>
      <div class="two-columns">
        {KINDS.map(([key, title, noun]) => (
          <Counts key={key} counts={preview[key]} title={title} noun={noun} />
        ))}
      </div>
    </section>
  );
}
