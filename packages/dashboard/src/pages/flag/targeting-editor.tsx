import { useEffect, useState } from 'preact/hooks';
import { ApiError, seg } from '../../api/client.js';
import { isConflict, putTargeting } from '../../api/targeting.js';
import type { ConfigVariant, EnvironmentHeader, FlagHeader, Prerequisite, PutTargetingRequest, ScheduleResponse, Segment, StoredRule, Targeting, TargetingBody, TargetingPreview, UserHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { filterProblems, RulesEditor } from '../../components/rule-builder/index.js';
import { Loading } from '../../components/states.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';
import { useWorkspace } from '../../workspace.js';
import { ImpactPreview } from './impact-preview.js';
import { PrerequisitesEditor } from './prerequisites-editor.js';
import { ScheduleDialog } from './schedule-dialog.js';
import { Schedules } from './schedules.js';
import { VariantsEditor } from './variants-editor.js';

interface Draft {
  rules: StoredRule[];
  variants: ConfigVariant[];
  prerequisites: Prerequisite[];
}

const draftOf = (t: Targeting): Draft => ({ rules: t.rules, variants: t.config.variants, prerequisites: t.prerequisites });
const bodyOf = (d: Draft): TargetingBody => ({ rules: d.rules, config: { variants: d.variants }, prerequisites: d.prerequisites });

/** Local problems of the whole draft, in the API's paths (`rules.0.filter.values`, `config.variants.1.key`). */
function draftProblems(draft: Draft): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  draft.rules.forEach((r, i) => filterProblems(r.filter, `rules.${i}.filter`, out));
  const seen = new Set<string>();
  draft.variants.forEach((v, i) => {
    if (!v.key.trim()) (out[`config.variants.${i}.key`] ??= []).push('Give the variant a key.');
    else if (seen.has(v.key)) (out[`config.variants.${i}.key`] ??= []).push('Another variant has this key.');
    seen.add(v.key);
    filterProblems(v.filter, `config.variants.${i}.filter`, out);
  });
  return out;
}

/**
 * A flag's rules and config in one environment, saved together. The save sends `ifVersion` (the version loaded):
 * when someone else saved meanwhile, the API refuses it and the page says so instead of overwriting their change.
 */
export function TargetingEditor(props: { flag: FlagHeader; env: EnvironmentHeader; segments: Segment[]; flags: FlagHeader[]; members: UserHeader[] }) {
  const { flag, env, segments, flags } = props;
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const path = `apps/${seg(app.id)}/flags/${seg(flag.key)}/targeting/${seg(env.id)}`;
  const loaded = useResource(() => api.get<Targeting>(path), [api, path]);
  const [draft, setDraft] = useState<Draft | undefined>();
  const [generation, setGeneration] = useState(0);
  const [badPayloads, setBadPayloads] = useState<Set<number>>(new Set());
  const [showProblems, setShowProblems] = useState(false);
  const save = useAction();
  const preview = useAction();
  const schedule = useAction();
  const [previewed, setPreviewed] = useState<{ of: string; result: TargetingPreview } | undefined>();
  const [scheduling, setScheduling] = useState(false);
  const [schedulesGeneration, setSchedulesGeneration] = useState(0);
  const readOnly = !can('write:flag:targeting', env.id) || flag.archived;

  const reset = (t: Targeting) => {
    setDraft(draftOf(t));
    setGeneration((g) => g + 1);
    setBadPayloads(new Set());
    setShowProblems(false);
    setPreviewed(undefined);
  };
  useEffect(() => {
    if (loaded.data) reset(loaded.data);
  }, [loaded.data]);

  if (loaded.error) return <ApiErrorBox error={loaded.error} />;
  if (!loaded.data || !draft) return <Loading label={`Loading targeting in ${env.name}`} />;
  const targeting = loaded.data;
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(targeting));
  const current = previewed?.of === JSON.stringify(draft) ? previewed.result : undefined;
  const local = draftProblems(draft);
  const localCount = Object.keys(local).length + badPayloads.size;
  const issues = (p: string, nested = false) => {
    // The PUT and the preview name the body's fields; a schedule names them under `targeting.`.
    const server = [save.error, preview.error].flatMap((e) => (e instanceof ApiError ? e.issuesAt(p, nested) : []));
    if (schedule.error instanceof ApiError) server.push(...schedule.error.issuesAt(`targeting.${p}`, nested));
    const mine = showProblems ? Object.entries(local).filter(([k]) => k === p || (nested && k.startsWith(`${p}.`))).flatMap(([, m]) => m) : [];
    return [...mine, ...server];
  };

  /** Local problems block every request: they are shown beside their fields instead. */
  const ready = () => {
    setShowProblems(localCount > 0);
    return localCount === 0;
  };
  const runPreview = async () => {
    if (!ready()) return;
    const of = JSON.stringify(draft);
    const result = await preview.run(() => api.send<TargetingPreview>('POST', `${path}/preview`, bodyOf(draft)));
    if (result) setPreviewed({ of, result });
  };
  const runSchedule = async (at: string) => {
    const done = await schedule.run(() => api.send<ScheduleResponse>('POST', `apps/${seg(app.id)}/flags/${seg(flag.key)}/schedules`, { envId: env.id, at, targeting: bodyOf(draft) }));
    if (!done) return;
    setScheduling(false);
    setSchedulesGeneration((g) => g + 1);
    reset(targeting);
    toast(`Scheduled the change of ${flag.name} in ${env.name} for ${new Date(done.schedule.at).toLocaleString()}.`);
  };
  const submit = async () => {
    if (!ready()) return;
    const body: PutTargetingRequest = { ...bodyOf(draft), ifVersion: targeting.version };
    const done = await save.run(() => putTargeting(api, path, body));
    if (done) {
      loaded.set(done.targeting);
      toast(`Saved targeting of ${flag.name} in ${env.name} (version ${done.targeting.version}).`);
    }
  };
  const conflict = isConflict(save.error);

  return (
    <div class="targeting">
      <p class="muted">
        Version {targeting.version}
        {targeting.updatedAt ? `, saved ${new Date(targeting.updatedAt).toLocaleString()}` : ', never saved'}.
        {readOnly && !flag.archived ? ' You can read this environment, not change it.' : ''}
        {flag.archived ? ' Archived: restore the flag to change its targeting.' : ''}
      </p>
      <h3>Prerequisites</h3>
      <PrerequisitesEditor
        value={draft.prerequisites}
        onChange={(prerequisites) => setDraft({ ...draft, prerequisites })}
        flags={flags.filter((f) => f.key !== flag.key && !f.archived)}
        issues={issues}
        readOnly={readOnly}
      />
      <h3>Rules</h3>
      <RulesEditor rules={draft.rules} onChange={(rules) => setDraft({ ...draft, rules })} segments={segments} issues={issues} readOnly={readOnly} />
      <h3>Config variants</h3>
      <VariantsEditor
        variants={draft.variants}
        onChange={(variants) => setDraft({ ...draft, variants })}
        onPayloadValidity={(i, valid) =>
          setBadPayloads((old) => {
            const next = new Set(old);
            if (valid) next.delete(i);
            else next.add(i);
            return next;
          })
        }
        issues={issues}
        readOnly={readOnly}
        segments={segments}
        generation={generation}
      />
      <ApiErrorBox error={save.error} paths={['rules', 'config', 'prerequisites']} />
      <ApiErrorBox error={preview.error} paths={['rules', 'config', 'prerequisites']} />
      {current ? <ImpactPreview preview={current} envName={env.name} /> : null}
      {showProblems && localCount ? (
        <p class="field-error" role="alert">
          Fix the {localCount} problem{localCount === 1 ? '' : 's'} marked above before saving.
        </p>
      ) : null}
      {!readOnly ? (
        <div class="actions sticky-actions">
          <button type="button" class="primary" disabled={!dirty || save.busy} onClick={submit}>
            Save targeting in {env.name}
          </button>
          <button type="button" disabled={(!dirty && !conflict) || save.busy} onClick={() => {
              save.clear();
              if (conflict) loaded.reload();
              else reset(targeting);
            }}>
            {conflict ? 'Reload' : 'Discard changes'}
          </button>
          <button type="button" disabled={preview.busy} onClick={runPreview}>
            Preview impact
          </button>
          <button type="button" disabled={!dirty || schedule.busy} onClick={() => {
              schedule.clear();
              if (ready()) setScheduling(true);
            }}>
            Schedule…
          </button>
          {dirty ? <span class="muted">Unsaved changes</span> : null}
        </div>
      ) : null}
      {scheduling ? (
        <ScheduleDialog open envName={env.name} busy={schedule.busy} error={schedule.error} onClose={() => setScheduling(false)} onSchedule={runSchedule} />
      ) : null}
      <Schedules flag={flag} env={env} members={props.members} generation={schedulesGeneration} onApplied={() => (dirty ? toast(`A scheduled change of ${flag.name} was applied in ${env.name}: your unsaved edits are on the older version.`) : loaded.reload())} />
    </div>
  );
}
