import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { seg } from './api/client.js';
import type { AppHeader, EnvironmentHeader, ListApps, ListEnvironments } from './api/types.js';
import { useSession } from './auth/session.js';
import { ApiErrorBox } from './components/api-error.js';
import { Empty, Loading } from './components/states.js';
import { useResource } from './components/use-resource.js';

/** The app and environment the pages work in, chosen in the header and remembered in this browser. */
export interface Workspace {
  apps: AppHeader[];
  app: AppHeader;
  setAppId(id: string): void;
  /** Ordered as the app orders them. */
  envs: EnvironmentHeader[];
  env: EnvironmentHeader;
  setEnvId(id: string): void;
  /** Re-reads the environments (after one was created, renamed or reordered). */
  reloadEnvs(): void;
}

/** An environment's name, marked when it is production and its name does not say so. */
export const envLabel = (env: EnvironmentHeader) =>
  env.isProduction && !/prod/i.test(env.name) ? `${env.name} (production)` : env.name;

const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside <WorkspaceProvider>');
  return workspace;
}

const remembered = (name: string) => {
  try {
    return localStorage.getItem(`flagmount.${name}`) ?? '';
  } catch {
    return '';
  }
};
const remember = (name: string, value: string) => {
  try {
    localStorage.setItem(`flagmount.${name}`, value);
  } catch {
    // Private mode: the choice lasts until reload.
  }
};

export function WorkspaceProvider({ children }: { children: ComponentChildren }) {
  const { api } = useSession();
  const apps = useResource(() => api.get<ListApps>('apps').then((r) => r.data), [api]);
  const [appId, setAppId] = useState(() => remembered('appId'));
  const app = apps.data?.find((a) => a.id === appId) ?? apps.data?.[0];
  const envs = useResource(
    () => (app ? api.get<ListEnvironments>(`apps/${seg(app.id)}/environments`, { sortBy: 'order' }).then((r) => r.data) : Promise.resolve([])),
    [api, app?.id],
  );
  const [envId, setEnvId] = useState(() => remembered('envId'));
  const env = envs.data?.find((e) => e.id === envId) ?? envs.data?.[0];

  useEffect(() => {
    if (app) remember('appId', app.id);
  }, [app?.id]);
  useEffect(() => {
    if (env) remember('envId', env.id);
  }, [env?.id]);

  const value = useMemo<Workspace | null>(
    () =>
      app && env && envs.data
        ? { apps: apps.data ?? [], app, setAppId, envs: envs.data, env, setEnvId, reloadEnvs: envs.reload }
        : null,
    [apps.data, app, envs.data, env],
  );

  if (apps.error || envs.error) return <ApiErrorBox error={apps.error ?? envs.error} />;
  if (apps.loading && !apps.data) return <Loading label="Loading apps" />;
  if (!apps.data?.length) return <Empty>This organisation has no app yet. Create one through the management API (`POST /apps`).</Empty>;
  if (!value) return envs.loading ? <Loading label="Loading environments" /> : <Empty>This app has no environment.</Empty>;
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
