/** Dashboard browser code, last part: sign-in, layout, hash router, start. See core.ts for the string rules. */
export const MAIN_JS = String.raw`
var root = document.getElementById('app');

function showLogin(message) {
  var input = h('input', { type: 'password', id: 'management-key', name: 'key', autocomplete: 'off', required: true, placeholder: 'fmk_…' });
  var status = h('p', { class: 'notice' });
  if (message) notice(status, 'error', message);
  var form = h('form', { class: 'card login', onsubmit: async function (event) {
    event.preventDefault();
    setKey(input.value.trim());
    try {
      await start();
    } catch (error) {
      if (error.status !== 401) fail(status, error);
    }
  } }, [
    h('h1', null, 'Flagmount'),
    h('label', { for: 'management-key' }, 'Management API key'),
    input,
    h('p', { class: 'muted' }, 'Kept in this tab only (sessionStorage) and sent as a bearer token to the management API.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    status,
  ]);
  clear(root).appendChild(form);
  input.focus();
}

function layout(active) {
  var envSelect = h('select', { id: 'env-select', 'aria-label': 'Environment', onchange: function () {
    state.envId = envSelect.value;
    route();
  } }, state.app.environments.map(function (env) {
    return h('option', { value: env.id, selected: env.id === state.envId }, env.name);
  }));
  var link = function (hash, label, name) {
    return h('a', { href: hash, class: active === name ? 'active' : null }, label);
  };
  var appSelect = state.apps.length > 1 ? h('select', { id: 'app-select', 'aria-label': 'App', onchange: function () {
    openApp(appSelect.value).catch(function (error) { if (error.status !== 401) showLogin(error.message); });
  } }, state.apps.map(function (app) {
    return h('option', { value: app.id, selected: app.id === state.app.id }, app.name);
  })) : h('span', { class: 'muted' }, state.app.name);
  var main = h('main', { id: 'main' });
  clear(root);
  append(root, [
    h('header', { class: 'top' }, [
      h('strong', { class: 'brand' }, 'Flagmount'),
      appSelect,
      h('nav', null, [link('#/', 'Flags', 'flags'), link('#/environments', 'Environments', 'environments'), link('#/audit', 'Audit', 'audit')]),
      h('span', { class: 'spacer' }),
      envSelect,
      h('button', { type: 'button', onclick: function () { setKey(null); showLogin(); } }, 'Sign out'),
    ]),
    main,
  ]);
  return main;
}

async function route() {
  if (!state.app) return;
  state.afterChange = null;
  var hash = location.hash.replace(/^#/, '') || '/';
  try {
    if (hash.indexOf('/flags/') === 0) await renderFlagPage(layout('flags'), decodeURIComponent(hash.slice(7)));
    else if (hash === '/environments') await renderEnvironments(layout('environments'));
    else if (hash === '/audit') await renderAudit(layout('audit'), null);
    else await renderFlagList(layout('flags'));
  } catch (error) {
    if (error.status === 401) return;
    var main = document.getElementById('main') || root;
    var box = h('p');
    fail(box, error);
    append(clear(main), box);
  }
}

/** Loads the key's apps and members, opens the first app (with environments, stages, segments), then routes. */
async function start() {
  state.apps = (await api('GET', 'apps')).data;
  if (!state.apps.length) throw new Error('This organisation has no app yet.');
  try {
    state.members = (await api('GET', 'members')).data;
  } catch (error) {
    state.members = [];
  }
  await openApp(state.apps[0].id);
}

async function openApp(appId) {
  state.app = await api('GET', 'apps/' + enc(appId));
  if (!state.envId || !state.app.environments.some(function (e) { return e.id === state.envId; })) {
    state.envId = state.app.environments.length ? state.app.environments[0].id : null;
  }
  await route();
}

async function refreshApp() {
  state.app = await api('GET', appPath(''));
}

window.addEventListener('hashchange', route);
if (getKey()) {
  start().catch(function (error) { if (error.status !== 401) showLogin(error.message); });
} else {
  showLogin();
}
`;
