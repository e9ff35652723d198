import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, apiBase, createApiClient, type ApiClient } from '../api/client.js';
import type { Actor, ListApps, ManagementScope } from '../api/types.js';
import { Loading } from '../components/states.js';
import { can } from './permissions.js';
import { SignIn } from './sign-in.js';

const KEY_STORAGE = 'flagmount.managementKey';

export interface Session {
  api: ApiClient;
  actor: Actor;
  /** Whether the actor may do what `scope` guards (in `envId`). */
  can(scope: ManagementScope, envId?: string): boolean;
  /** Present when signed in by management key: forgets the key. */
  signOut?: () => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <SessionProvider>');
  return session;
}

type State = { phase: 'loading' } | { phase: 'signed-out'; error?: string } | { phase: 'signed-in'; actor: Actor };

function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(KEY_STORAGE) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who is signed in: first the host's own sign-in (`GET <prefix>/me` with its cookie), else a management key the
 * person types, kept in sessionStorage (gone when the tab closes) and sent as a Bearer token.
 */
export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [key, setKey] = useState<string | undefined>(storedKey);
  const [state, setState] = useState<State>({ phase: 'loading' });
  const api = useMemo(() => createApiClient(apiBase(), () => key), [key]);

  useEffect(() => {
    let live = true;
    setState({ phase: 'loading' });
    whoAmI(api, key)
      .then((actor) => live && setState(actor ? { phase: 'signed-in', actor } : { phase: 'signed-out' }))
      .catch((error: unknown) => {
        if (!live) return;
        if (key) {
          sessionStorage.removeItem(KEY_STORAGE);
          setKey(undefined);
        }
        setState({ phase: 'signed-out', error: error instanceof ApiError && error.status === 401 ? 'That key was not accepted.' : String((error as Error).message) });
      });
    return () => {
      live = false;
    };
  }, [api, key]);

  const signIn = useCallback((secret: string) => {
    sessionStorage.setItem(KEY_STORAGE, secret);
    setKey(secret);
  }, []);
  const signOut = useCallback(() => {
    sessionStorage.removeItem(KEY_STORAGE);
    setKey(undefined);
  }, []);

  if (state.phase === 'loading') return <Loading label="Signing in" />;
  if (state.phase === 'signed-out') return <SignIn onKey={signIn} error={state.error} />;
  const { actor } = state;
  const session: Session = {
    api,
    actor,
    can: (scope, envId) => can(actor, scope, envId),
    ...(key ? { signOut } : {}),
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/**
 * Undefined when nobody is signed in. A server without `/me` (404) is treated like 401 for the cookie; with a key,
 * listing apps proves the key and its scopes stay unknown.
 */
async function whoAmI(api: ApiClient, key: string | undefined): Promise<Actor | undefined> {
  try {
    return (await api.get<{ actor: Actor }>('me')).actor;
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 404)) throw error;
    if (!key) return undefined;
    if (error.status === 401) throw error;
  }
  await api.get<ListApps>('apps');
  return { type: 'key', id: '', name: 'Management key', scopes: null };
}
