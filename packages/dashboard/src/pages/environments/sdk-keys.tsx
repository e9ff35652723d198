import { useState } from 'preact/hooks';
import { seg } from '../../api/client.js';
import type { Environment, EnvironmentHeader } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ApiErrorBox } from '../../components/api-error.js';
import { CopyButton } from '../../components/copy-button.js';
import { Confirm } from '../../components/dialog.js';
import { Loading } from '../../components/states.js';
import { useToast } from '../../components/toast.js';
import { useAction } from '../../components/use-action.js';
import { useResource } from '../../components/use-resource.js';

type Which = 'publishable' | 'secret';

/** One environment's SDK keys: shown (the secret one on request), copied, and rotated after a confirmation. */
export function SdkKeys({ env, base, admin }: { env: EnvironmentHeader; base: string; admin: boolean }) {
  const { api } = useSession();
  const toast = useToast();
  const path = `${base}/${seg(env.id)}`;
  const full = useResource(() => api.get<Environment>(path), [api, path]);
  const [revealed, setRevealed] = useState(false);
  const [rotating, setRotating] = useState<Which | null>(null);
  const rotate = useAction();

  const confirmRotation = async () => {
    if (!rotating) return;
    const updated = await rotate.run(() => api.send<Environment>('POST', `${path}/rotate-keys`, { which: rotating }));
    setRotating(null);
    if (updated) {
      full.set(updated);
      toast(`Rotated the ${rotating} key of ${env.name}`);
    }
  };

  const keys = full.data?.sdkAccess;
  const row = (which: Which, label: string, value: string, hidden: boolean) => (
    <div class="key-row">
      <span class="label">{label}</span>
      <code class="secret" data-key={which}>
        {hidden ? '•'.repeat(12) + value.slice(-4) : value}
      </code>
      <CopyButton text={value} what={`${which} key of ${env.name}`} />
      {which === 'secret' ? (
        <button type="button" class="small" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
          {revealed ? 'Hide' : 'Show'}
        </button>
      ) : null}
      {admin ? (
        <button type="button" class="small" onClick={() => setRotating(which)} aria-label={`Rotate the ${which} key of ${env.name}`}>
          Rotate
        </button>
      ) : null}
    </div>
  );

  return (
    <section class="sdk-keys" aria-label={`SDK keys of ${env.name}`}>
      <h3>{env.name}</h3>
      <ApiErrorBox error={full.error ?? rotate.error} />
      {keys ? (
        <>
          {row('publishable', 'Publishable', keys.publishableKey, false)}
          {row('secret', 'Secret', keys.secretKey, !revealed)}
        </>
      ) : full.loading ? (
        <Loading label={`Loading the keys of ${env.name}`} />
      ) : null}
      <Confirm
        open={rotating !== null}
        title={`Rotate the ${rotating ?? ''} key of ${env.name}?`}
        confirmLabel={`Rotate ${rotating ?? ''} key`}
        danger
        busy={rotate.busy}
        onConfirm={() => void confirmRotation()}
        onCancel={() => setRotating(null)}
      >
        <p>
          The current {rotating} key of {env.name} stops working at once. Every app and server using it must be given the new key.
        </p>
      </Confirm>
    </section>
  );
}
