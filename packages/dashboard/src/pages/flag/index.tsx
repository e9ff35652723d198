import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { seg } from '../../api/client.js';
import type { FlagDetails, FlagMutationResponse, ListFlags, ListMembers, ListSegments, ListStages } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Confirm } from '../../components/dialog.js';
import { SelectField } from '../../components/field.js';
import { Page } from '../../components/page.js';
import { Loading } from '../../components/states.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { staleness } from '../../lib/staleness.js';
import { envLabel, useWorkspace } from '../../workspace.js';
import { Activity } from './activity.js';
import { Feedback } from './feedback.js';
import { History } from './history.js';
import { SettingsForm } from './settings-form.js';
import { SpecificTargetsEditor } from './specific-targets.js';
import { TargetingEditor } from './targeting-editor.js';
import './flag.css';

const SECTIONS = [
  ['targeting', 'Targeting'],
  ['specific', 'Specific users and companies'],
  ['settings', 'Settings'],
  ['activity', 'Activity'],
  ['feedback', 'Feedback'],
  ['history', 'History'],
] as const;

/** One flag: targeting per environment, its fields, activity, feedback and history. */
export default function FlagPage({ params }: { params: Record<string, string | undefined> }) {
  const flagKey = params['flagKey'] ?? '';
  const { api, can } = useSession();
  const { app, env: workspaceEnv, envs } = useWorkspace();
  const toast = useToast();
  const appPath = `apps/${seg(app.id)}`;
  const details = useResource(() => api.get<FlagDetails>(`${appPath}/flags/${seg(flagKey)}/details`), [api, appPath, flagKey]);
  const stages = useResource(() => api.get<ListStages>(`${appPath}/stages`).then((r) => r.data), [api, appPath]);
  const segments = useResource(() => api.get<ListSegments>(`${appPath}/segments`).then((r) => r.data), [api, appPath]);
  // Candidates for prerequisites (the API's largest page: an app with more flags lists the first 1000 by key).
  const flags = useResource(() => api.get<ListFlags>(`${appPath}/flags`, { pageSize: 1000, sortBy: 'key', sortOrder: 'asc' }).then((r) => r.data), [api, appPath]);
  const members = useResource(() => api.get<ListMembers>('members').then((r) => r.data), [api]);
  const [envId, setEnvId] = useState(workspaceEnv.id);
  const [archiving, setArchiving] = useState(false);
  const archive = useAction();

  if (details.error) {
    return (
      <Page title={flagKey}>
        <ApiErrorBox error={details.error} />
        <Link href="/flags">Back to the flags</Link>
      </Page>
    );
  }
  if (!details.data) return <Loading label="Loading the flag" />;
  const { flag } = details.data;
  const env = envs.find((e) => e.id === envId) ?? workspaceEnv;
  const names = { stages: stages.data ?? [], members: members.data ?? [], segments: segments.data ?? [] };
  const status = staleness(flag, Date.now(), details.data.staleAfterDays);

  const setArchived = async (isArchived: boolean) => {
    const done = await archive.run(() => api.send<FlagMutationResponse>('PATCH', `${appPath}/flags/${seg(flag.id)}`, { isArchived }));
    setArchiving(false);
    if (done) {
      toast(isArchived ? `${flag.name} is archived: it is served nowhere.` : `${flag.name} is restored.`);
      details.reload();
    }
  };

  return (
    <Page
      title={flag.name}
      actions={
        can('write:flags') ? (
          flag.archived ? (
            <button type="button" onClick={() => setArchived(false)} disabled={archive.busy}>
              Restore
            </button>
          ) : (
            <button type="button" class="danger" onClick={() => setArchiving(true)}>
              Archive
            </button>
          )
        ) : null
      }
    >
      <p class="flag-meta">
        <code>{flag.key}</code>
        {flag.stage ? <span class="badge">{flag.stage.name}</span> : null}
        {flag.archived ? <span class="badge">archived</span> : null}
        <span class={`badge ${status.label === 'stale' ? 'stale' : ''}`} title={status.reason}>
          {status.label}
        </span>
        {flag.owner ? <span class="muted">Owner: {flag.owner.name}</span> : null}
      </p>
      {flag.description ? <p>{flag.description}</p> : null}
      <ApiErrorBox error={archive.error} />
      <nav aria-label="Sections of the flag" class="section-nav">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#/flags/${encodeURIComponent(flag.key)}`} onClick={(e) => { e.preventDefault(); document.getElementById(`section-${id}`)?.focus(); }}>
            {label}
          </a>
        ))}
      </nav>

      <section aria-labelledby="section-targeting">
        <h2 id="section-targeting" tabIndex={-1}>
          Targeting
        </h2>
        <SelectField label="Environment" value={env.id} onChange={setEnvId} options={envs.map((e) => ({ value: e.id, label: envLabel(e) }))} />
        {segments.data && flags.data ? <TargetingEditor key={env.id} flag={flag} env={env} segments={segments.data} flags={flags.data} members={names.members} /> : <Loading label="Loading segments and flags" />}
      </section>
      <section aria-labelledby="section-specific">
        <h2 id="section-specific" tabIndex={-1}>
          Specific users and companies in {env.name}
        </h2>
        <SpecificTargetsEditor key={env.id} flag={flag} env={env} />
      </section>
      <section aria-labelledby="section-settings">
        <h2 id="section-settings" tabIndex={-1}>
          Settings
        </h2>
        <SettingsForm key={JSON.stringify(details.data)} details={details.data} stages={names.stages} members={names.members} onSaved={details.reload} />
      </section>
      <section aria-labelledby="section-activity">
        <h2 id="section-activity" tabIndex={-1}>
          Activity
        </h2>
        <Activity flag={flag} staleAfterDays={details.data.staleAfterDays} />
      </section>
      <section aria-labelledby="section-feedback">
        <h2 id="section-feedback" tabIndex={-1}>
          Feedback
        </h2>
        <Feedback flag={flag} />
      </section>
      <section aria-labelledby="section-history">
        <h2 id="section-history" tabIndex={-1}>
          History
        </h2>
        <History flag={flag} segmentName={(id) => names.segments.find((sg) => sg.id === id)?.name ?? id} />
      </section>
      <Confirm
        open={archiving}
        title={`Archive ${flag.name}?`}
        confirmLabel="Archive flag"
        danger
        busy={archive.busy}
        onCancel={() => setArchiving(false)}
        onConfirm={() => setArchived(true)}
      >
        <p>An archived flag is served in no environment: code that checks it gets “off”. You can restore it later; its targeting is kept.</p>
      </Confirm>
    </Page>
  );
}
