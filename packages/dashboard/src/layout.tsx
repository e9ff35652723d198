import type { ComponentChildren } from 'preact';
import { Link, useLocation } from 'wouter-preact';
import { useSession } from './auth/session.js';
import { SelectField } from './components/field.js';
import { ROUTES } from './routes.js';
import { envLabel, useWorkspace } from './workspace.js';

/** Header (app and environment pickers, who is signed in), navigation, and the page. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { actor, signOut } = useSession();
  const { apps, app, setAppId, envs, env, setEnvId } = useWorkspace();
  const [location] = useLocation();
  const role = actor.type === 'person' ? actor.role : 'management key';
  return (
    <div class="shell">
      <a class="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('page-title')?.focus(); }}>
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Flagmount</span>
        <div class="pickers">
          <SelectField label="App" value={app.id} options={apps.map((a) => ({ value: a.id, label: a.name }))} onChange={setAppId} />
          <SelectField
            label="Environment"
            value={env.id}
            options={envs.map((e) => ({ value: e.id, label: envLabel(e) }))}
            onChange={setEnvId}
          />
        </div>
        <div class="who">
          <span>
            {actor.name} <span class="muted">({role})</span>
          </span>
          {signOut ? (
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          ) : null}
        </div>
      </header>
      <nav class="sidebar" aria-label="Main">
        <ul>
          {ROUTES.filter((r) => r.nav).map((r) => {
            const current = location === r.path || location.startsWith(`${r.path}/`);
            return (
              <li key={r.path}>
                <Link href={r.path} aria-current={current ? 'page' : undefined}>
                  {r.nav}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" class="content">
        {children}
      </main>
    </div>
  );
}
