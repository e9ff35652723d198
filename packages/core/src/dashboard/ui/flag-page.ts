/** Dashboard browser code: one flag (header, stage/owner, archive, environments, chart, history). See core.ts. */
export const FLAG_PAGE_JS = String.raw`
async function findFlag(key) {
  var params = new URLSearchParams({ pageSize: '1000', search: key });
  var found = (await api('GET', appPath('/flags?' + params.toString()))).data;
  var flag = found.find(function (f) { return f.key === key; });
  if (flag) return flag;
  params.set('archived', 'true');
  found = (await api('GET', appPath('/flags?' + params.toString()))).data;
  return found.find(function (f) { return f.key === key; }) || null;
}

/** 'message' is a notice to show after a re-render (the page is rebuilt after archiving). */
async function renderFlagPage(main, key, message) {
  var flag = await findFlag(key);
  if (!flag) {
    append(main, [h('p', null, 'No flag "' + key + '".'), h('a', { href: '#/' }, 'Back to flags')]);
    return;
  }
  var status = h('p', { class: 'notice', id: 'flag-status' });
  if (message) notice(status, 'ok', message);
  var stage = h('select', { id: 'flag-stage', 'aria-label': 'Stage' }, stageOptions(flag.stage ? flag.stage.id : null, !flag.stage));
  var owner = h('select', { id: 'flag-owner', 'aria-label': 'Owner' }, memberOptions(flag.owner ? flag.owner.id : null));
  var patch = async function (body, what) {
    try {
      var result = await api('PATCH', appPath('/flags/' + enc(flag.id)), body);
      flag = result.flag;
      var version = result.flagStateVersions[state.envId];
      notice(status, 'ok', what + ' — flagStateVersion ' + version + ' in ' + currentEnv().name);
      if (state.afterChange) state.afterChange();
      return result;
    } catch (error) {
      fail(status, error);
      return null;
    }
  };
  stage.addEventListener('change', function () { if (stage.value) patch({ stageId: stage.value }, 'Stage saved'); });
  owner.addEventListener('change', function () { patch({ ownerUserId: owner.value || null }, 'Owner saved'); });
  var archive = h('button', { type: 'button', id: 'archive-flag', class: flag.archived ? '' : 'danger', onclick: async function () {
    var next = !flag.archived;
    if (next && !confirm('Archive "' + flag.key + '"? It stops being served in every environment.')) return;
    var result = await patch({ isArchived: next }, next ? 'Archived' : 'Restored');
    if (result) renderFlagPage(clear(main), key, status.textContent);
  } }, flag.archived ? 'Restore' : 'Archive');

  var envTabs = h('div', { class: 'tabs', role: 'tablist' }, state.app.environments.map(function (env) {
    return h('button', { type: 'button', role: 'tab', class: env.id === state.envId ? 'active' : '', 'aria-selected': String(env.id === state.envId), onclick: function () {
      state.envId = env.id;
      document.getElementById('env-select').value = env.id;
      renderFlagPage(clear(main), key);
    } }, env.name + (env.isProduction ? ' (production)' : ''));
  }));

  var targetingBox = h('section', { class: 'card', id: 'targeting' });
  var specificBox = h('section', { class: 'card', id: 'specific-targets' });
  var chartBox = h('section', { class: 'card', id: 'checks-chart' });
  var historyBox = h('section', { class: 'card', id: 'history' });
  append(main, [
    h('p', null, h('a', { href: '#/' }, '← Flags')),
    h('div', { class: 'flag-head' }, [
      h('div', null, [
        h('h2', null, [flag.name, flag.archived ? h('span', { class: 'badge' }, 'archived') : null, flag.stale ? h('span', { class: 'badge warn' }, 'stale') : null]),
        h('p', null, [h('code', { id: 'flag-key' }, flag.key), flag.description ? ' — ' + flag.description : '']),
        h('p', { class: 'muted' }, 'Last check: ' + relativeTime(flag.lastCheckAt) + ' · created ' + relativeTime(flag.createdAt)),
      ]),
      h('div', { class: 'head-actions' }, [h('label', null, ['Stage', stage]), h('label', null, ['Owner', owner]), archive]),
    ]),
    status,
    envTabs,
    targetingBox,
    specificBox,
    chartBox,
    historyBox,
  ]);
  var env = currentEnv();
  // Saves elsewhere on the page add audit entries: the history follows them.
  state.afterChange = function () {
    renderAudit(clear(historyBox), flag).catch(function () { /* the next page load shows it */ });
  };
  await Promise.all([
    renderTargeting(targetingBox, flag, env),
    renderSpecificTargets(specificBox, flag, env),
    renderChecksChart(chartBox, flag, env),
    renderAudit(historyBox, flag),
  ]);
}

/** Audit entries, newest first; for one flag ('flag' given) or the whole app. */
async function renderAudit(box, flag) {
  var entries = [];
  try {
    entries = (await api('GET', appPath('/audit?limit=500'))).data;
  } catch (error) {
    var p = h('p');
    fail(p, error);
    append(box, [h('h3', null, 'History'), p]);
    return;
  }
  if (flag) entries = entries.filter(function (e) { return e.targetId === flag.id || (e.after && e.after.flagKey === flag.key); });
  var envName = function (id) {
    var env = state.app.environments.find(function (e) { return e.id === id; });
    return env ? env.name : id;
  };
  append(box, [
    h('h3', null, flag ? 'History' : 'Audit history'),
    entries.length
      ? h('ol', { class: 'audit' }, entries.map(function (entry) {
          return h('li', null, [
            h('div', { class: 'audit-head' }, [
              h('strong', null, entry.action),
              flag ? null : h('code', null, entry.targetType + ' ' + entry.targetId),
              entry.envId ? h('span', { class: 'badge' }, envName(entry.envId)) : null,
              h('span', { class: 'muted', title: entry.createdAt }, relativeTime(entry.createdAt) + ' by ' + entry.actor),
            ]),
            entry.changeDescription ? h('p', null, entry.changeDescription) : null,
            diffView(entry.before, entry.after),
          ]);
        }))
      : h('p', { class: 'muted' }, 'No changes recorded yet.'),
  ]);
}

/** Flattens JSON to dotted paths, so that a diff lists only the leaves that changed. */
function flatten(value, prefix, out) {
  if (value !== null && typeof value === 'object' && Object.keys(value).length) {
    Object.keys(value).forEach(function (k) { flatten(value[k], prefix ? prefix + '.' + k : k, out); });
  } else {
    out[prefix || '(value)'] = JSON.stringify(value);
  }
  return out;
}

function diffView(before, after) {
  var a = before === null || before === undefined ? {} : flatten(before, '', {});
  var b = after === null || after === undefined ? {} : flatten(after, '', {});
  var paths = Object.keys(a).concat(Object.keys(b).filter(function (p) { return !(p in a); })).sort();
  var changed = paths.filter(function (p) { return a[p] !== b[p] && p.indexOf('updatedAt') === -1; });
  if (!changed.length) return null;
  return h('table', { class: 'diff' }, h('tbody', null, changed.slice(0, 40).map(function (p) {
    return h('tr', null, [
      h('td', null, h('code', null, p)),
      h('td', { class: 'del' }, p in a ? a[p] : ''),
      h('td', { class: 'add' }, p in b ? b[p] : ''),
    ]);
  })));
}
`;
