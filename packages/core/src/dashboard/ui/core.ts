/**
 * Dashboard browser code, part 1: DOM helper, API client, session key, shared state. The UI ships as JavaScript
 * text inside TypeScript modules so that it is served identically from sources (vitest, tsx) and from the tsup
 * build, with no file read at runtime. Rules for these strings: no backticks and no "${" (they are template
 * literals), every part is a plain script fragment concatenated into one IIFE by ../assets.ts.
 */
export const CORE_JS = String.raw`
var KEY_STORAGE = 'flagmount.managementKey';
// The page lives at <prefix>/ui/; the management API at <prefix>/.
var BASE = location.pathname.replace(/ui\/?$/, '');
var state = { apps: [], app: null, envId: null, flags: [], members: [], afterChange: null };

function h(tag, attrs, children) {
  var el = document.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name.slice(0, 2) === 'on') el.addEventListener(name.slice(2), value);
      else if (name === 'class') el.className = value;
      else if (name === 'value') el.value = value;
      else if (name === 'checked' || name === 'selected' || name === 'disabled') el[name] = Boolean(value);
      else el.setAttribute(name, value === true ? '' : String(value));
    });
  }
  append(el, children);
  return el;
}

function append(el, children) {
  if (children === null || children === undefined || children === false) return el;
  (Array.isArray(children) ? children : [children]).forEach(function (child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  });
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

function ApiError(status, body) {
  this.status = status;
  this.body = body;
  var error = body && body.error;
  var issues = body && body.issues
    ? Object.keys(body.issues).map(function (path) { return (path || 'body') + ': ' + body.issues[path].join(', '); })
    : [];
  this.message = (error ? error.message : 'HTTP ' + status) + (issues.length ? ' (' + issues.join('; ') + ')' : '');
}

function getKey() {
  try { return sessionStorage.getItem(KEY_STORAGE); } catch (e) { return null; }
}

function setKey(key) {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch (e) { /* storage disabled: the key lives for this page only */ }
  memoryKey = key;
}
var memoryKey = null;

async function api(method, path, body) {
  var key = getKey() || memoryKey;
  var headers = { authorization: 'Bearer ' + key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  var res = await fetch(BASE + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
  var text = await res.text();
  var data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (res.status === 401) {
    setKey(null);
    showLogin('The management key was refused. Enter it again.');
    throw new ApiError(401, data);
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

function enc(value) {
  return encodeURIComponent(value);
}

function appPath(rest) {
  return 'apps/' + enc(state.app.id) + (rest || '');
}

function currentEnv() {
  return state.app.environments.find(function (e) { return e.id === state.envId; }) || state.app.environments[0];
}

function relativeTime(iso) {
  if (!iso) return 'never';
  var seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  var units = [['d', 86400], ['h', 3600], ['min', 60]];
  for (var i = 0; i < units.length; i++) {
    if (seconds >= units[i][1]) return Math.floor(seconds / units[i][1]) + ' ' + units[i][0] + ' ago';
  }
  return 'just now';
}

/** A status line under a form: what was saved (with the flagStateVersion) or what went wrong. */
function notice(el, kind, text) {
  clear(el);
  el.className = 'notice ' + kind;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  append(el, text);
}

function fail(el, error) {
  notice(el, 'error', error && error.message ? error.message : String(error));
}

function stageBadge(stage) {
  if (!stage) return h('span', { class: 'muted' }, 'none');
  var dot = h('span', { class: 'dot' });
  dot.style.background = stage.color;
  return h('span', { class: 'stage' }, [dot, stage.name]);
}

function copyText(text, button) {
  var done = function () {
    var label = button.textContent;
    button.textContent = 'Copied';
    setTimeout(function () { button.textContent = label; }, 1200);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
  } else {
    fallbackCopy(text);
    done();
  }
}

function fallbackCopy(text) {
  var area = h('textarea', { class: 'offscreen', readonly: true }, text);
  document.body.appendChild(area);
  area.select();
  try { document.execCommand('copy'); } catch (e) { /* nothing else to try */ }
  document.body.removeChild(area);
}
`;
