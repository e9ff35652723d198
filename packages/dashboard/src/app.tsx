import { Redirect, Route, Router, Switch } from 'wouter-preact';
import { useHashLocation } from 'wouter-preact/use-hash-location';
import { SessionProvider } from './auth/session.js';
import { Page } from './components/page.js';
import { Empty } from './components/states.js';
import { ToastProvider } from './components/toast.js';
import { Layout } from './layout.js';
import { ROUTES } from './routes.js';
import { WorkspaceProvider } from './workspace.js';

export function App() {
  return (
    <ToastProvider>
      <SessionProvider>
        <WorkspaceProvider>
          <Router hook={useHashLocation}>
            <Layout>
              <Switch>
                {ROUTES.map((r) => (
                  <Route key={r.path} path={r.path} component={r.component} />
                ))}
                <Route path="/">
                  <Redirect to="/flags" replace />
                </Route>
                <Route>
                  <Page title="Not found">
                    <Empty>There is no such page. Pick one in the navigation.</Empty>
                  </Page>
                </Route>
              </Switch>
            </Layout>
          </Router>
        </WorkspaceProvider>
      </SessionProvider>
    </ToastProvider>
  );
}
