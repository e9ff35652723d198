import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import { putTargeting } from '../../api/targeting.js';
import type { EnvironmentHeader, FlagHeader, FlagStatus, PutTargetingRequest, Targeting } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { Confirm } from '../../components/dialog.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useWorkspace } from '../../workspace.js';

export type Status = FlagStatus;

const EVERYONE = [{ filter: { type: 'constant', value: true } as const }];

interface Pending {
  on: boolean;
  targeting: Targeting;
}

/**
 * A flag's status in one environment and the one-click switch: on for everyone (one rule that matches everyone)
 * or off (no rules). Both replace the rules, so the switch asks first whenever rules would be lost, and always in a
 * production environment. The write carries `ifVersion`: a change made meanwhile is reported, not overwritten.
 */
export function StatusToggle({ flag, env, status, onChanged }: { flag: FlagHeader; env: EnvironmentHeader; status: Status; onChanged: () => void }) {
  const { api, can } = useSession();
  const { app } = useWorkspace();
  const toast = useToast();
  const action = useAction();
  const [pending, setPending] = useState<Pending | undefined>();
  const path = `apps/${seg(app.id)}/flags/${seg(flag.key)}/targeting/${seg(env.id)}`;
  const writable = can('write:flag:targeting', env.id) && !flag.archived;

  const put = async (on: boolean, targeting: Targeting) => {
    const body: PutTargetingRequest = { rules: on ? EVERYONE : [], ifVersion: targeting.version };
    const done = await action.run(() => putTargeting(api, path, body));
    setPending(undefined);
    if (done) {
      toast(`${flag.name} is ${on ? 'on for everyone' : 'off'} in ${env.name}.`);
      onChanged();
    }
  };

  const start = async (on: boolean) => {
    const targeting = await action.run(() => api.get<Targeting>(path));
    if (!targeting) return;
    const losesRules = targeting.rules.length > 0;
    if (env.isProduction || losesRules) setPending({ on, targeting });
    else await put(on, targeting);
  };

  const label = (on: boolean) => `${on ? 'Turn on' : 'Turn off'} ${flag.name} in ${env.name}`;
  return (
    <div class="status-cell">
      <span class={`badge ${status === 'everyone' ? 'on' : status}`}>{status === 'everyone' ? 'everyone' : status}</span>
      {writable ? (
        <span class="status-actions">
          {status !== 'everyone' ? (
            <button
              type="button"
              class="small"
              // The visible words lead the accessible name (WCAG 2.5.3, axe label-content-name-mismatch).
              aria-label={status === 'off' ? label(true) : `All on: ${flag.name} for everyone in ${env.name}`}
              disabled={action.busy}
              onClick={() => start(true)}
            >
              {status === 'off' ? 'Turn on' : 'All on'}
            </button>
          ) : null}
          {status !== 'off' ? (
            <button type="button" class="small" aria-label={label(false)} disabled={action.busy} onClick={() => start(false)}>
              Turn off
            </button>
          ) : null}
        </span>
      ) : null}
      <ApiErrorBox error={action.error} />
      {pending ? (
        <Confirm
          open
          title={`${pending.on ? 'Turn on for everyone' : 'Turn off'} in ${env.name}?`}
          confirmLabel={pending.on ? `Turn on in ${env.name}` : `Turn off in ${env.name}`}
          danger={!pending.on}
          busy={action.busy}
          onCancel={() => setPending(undefined)}
          onConfirm={() => put(pending.on, pending.targeting)}
        >
          <p>
            {pending.on ? (
              <>
                <strong>{flag.name}</strong> will be on for every user and company in <strong>{env.name}</strong>
                {env.isProduction ? ', a production environment' : ''}.
              </>
            ) : (
              <>
                <strong>{flag.name}</strong> will be off in <strong>{env.name}</strong>
                {env.isProduction ? ', a production environment' : ''}. Users and companies targeted one by one keep it.
              </>
            )}
          </p>
          {pending.targeting.rules.length > 0 ? (
            <p>
              This replaces its {pending.targeting.rules.length} targeting rule{pending.targeting.rules.length === 1 ? '' : 's'} here; the history keeps them.
            </p>
          ) : null}
        </Confirm>
      ) : null}
    </div>
  );
}
