/*
 * The dashboard's pages. Conventions (read before adding one):
 *
 * - A page is `pages/<name>/index.tsx` with a default export, listed below; `nav` puts it in the navigation.
 *   Paths are hash routes (`#/flags/my-flag`), so the page works under any mount prefix without server routes.
 * - Wrap it in <Page title actions> (components/page.tsx): one <h1>, focused on arrival, document title set.
 * - Data: `const { api, can } = useSession()` (auth/session.tsx) and `const { app, env, envs } = useWorkspace()`
 *   (workspace.tsx). Read with `useResource(() => api.get<T>(`apps/${seg(app.id)}/…`), [deps])`; write with
 *   `api.send<T>(method, path, body)`. Types come from api/types.ts, which derives them from the core's TypeBox
 *   schemas: add an `import type` there, never hand-write an API type.
 * - Errors: an ApiError carries `issues` (dotted field path → messages). Show it where it happened: fields take
 *   `error={issuesAt(err, 'name')}`; <ApiErrorBox error={err} paths={['name']}/> shows the rest.
 * - Read-only: hide or disable writes unless `can('write:flags')` / `can('admin')` / `can('write:flag:targeting',
 *   envId)` / `can('write:entities')`; the server enforces it anyway.
 * - Components: Table, Dialog/Confirm (native <dialog>, focus handled), TextField/TextArea/SelectField/Checkbox
 *   (labelled, errors announced), useToast() after a save, <Loading/>/<Empty/>, and the rule builder in
 *   components/rule-builder/ (`<FilterEditor value onChange segments readOnly/>`).
 * - Styles: styles.css; use its colour variables, which pass WCAG AA contrast (axe runs on every page).
 */
import type { FunctionComponent } from 'preact';
import AuditPage from './pages/audit/index.js';
import CompaniesPage from './pages/companies/index.js';
import EnvironmentsPage from './pages/environments/index.js';
import FlagPage from './pages/flag/index.js';
import FlagsPage from './pages/flags/index.js';
import KeysPage from './pages/keys/index.js';
import MembersPage from './pages/members/index.js';
import SegmentsPage from './pages/segments/index.js';
import StagesPage from './pages/stages/index.js';
import UsersPage from './pages/users/index.js';

export interface RouteEntry {
  /** wouter pattern, e.g. `/flags/:flagKey`. */
  path: string;
  component: FunctionComponent<{ params: Record<string, string | undefined> }>;
  /** Label in the navigation; routes without one are reached by links (a flag, a user). */
  nav?: string;
}

export const ROUTES: RouteEntry[] = [
  { path: '/flags', component: FlagsPage, nav: 'Flags' },
  { path: '/flags/:flagKey', component: FlagPage },
  { path: '/segments', component: SegmentsPage, nav: 'Segments' },
  { path: '/stages', component: StagesPage, nav: 'Stages' },
  { path: '/environments', component: EnvironmentsPage, nav: 'Environments' },
  { path: '/users', component: UsersPage, nav: 'Users' },
  { path: '/users/:userId', component: UsersPage },
  { path: '/companies', component: CompaniesPage, nav: 'Companies' },
  { path: '/companies/:companyId', component: CompaniesPage },
  { path: '/audit', component: AuditPage, nav: 'Audit' },
  { path: '/keys', component: KeysPage, nav: 'Keys' },
  { path: '/members', component: MembersPage, nav: 'Members' },
];
