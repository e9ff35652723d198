/** Dashboard browser code: environments with their SDK keys, and the checks-per-day chart. See core.ts. */
export const ENVIRONMENTS_JS = String.raw`
async function renderEnvironments(main) {
  await refreshApp();
  var status = h('p', { class: 'notice', id: 'env-status' });
  var keyCell = function (env, which, value) {
    var secret = which === 'secret';
    var code = h('code', { class: 'sdk-key', 'data-key-kind': which }, secret ? mask(value) : value);
    var shown = !secret;
    return h('td', null, h('div', { class: 'key-cell' }, [
      code,
      secret ? h('button', { type: 'button', class: 'link', onclick: function (e) {
        shown = !shown;
        code.textContent = shown ? value : mask(value);
        e.target.textContent = shown ? 'Hide' : 'Show';
      } }, 'Show') : null,
      h('button', { type: 'button', class: 'link copy', onclick: function (e) { copyText(value, e.target); } }, 'Copy'),
      h('button', { type: 'button', class: 'link rotate', onclick: async function () {
        if (!confirm('Rotate the ' + which + ' key of ' + env.name + '? The current key stops working at once.')) return;
        try {
          await api('POST', appPath('/environments/' + enc(env.id) + '/rotate-keys'), { which: which });
          await renderEnvironments(clear(main));
          notice(document.getElementById('env-status'), 'ok', 'Rotated the ' + which + ' key of ' + env.name + '.');
        } catch (error) {
          fail(status, error);
        }
      } }, 'Rotate'),
    ]));
  };
  append(main, [
    h('h2', null, 'Environments'),
    h('table', { class: 'envs' }, [
      h('thead', null, h('tr', null, ['Name', 'Production', 'flagStateVersion', 'Publishable key', 'Secret key'].map(function (t) { return h('th', null, t); }))),
      h('tbody', null, state.app.environments.map(function (env) {
        return h('tr', { 'data-env-id': env.id }, [
          h('td', null, env.name),
          h('td', null, env.isProduction ? 'yes' : 'no'),
          h('td', null, String(env.flagStateVersion)),
          keyCell(env, 'publishable', env.sdkAccess.publishableKey),
          keyCell(env, 'secret', env.sdkAccess.secretKey),
        ]);
      })),
    ]),
    h('p', { class: 'muted' }, 'The publishable key is safe in browsers; the secret key belongs on servers only.'),
    status,
  ]);
}

function mask(value) {
  return value.slice(0, 8) + '…' + '•'.repeat(8);
}

var SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, children) {
  var el = document.createElementNS(SVG, tag);
  Object.keys(attrs || {}).forEach(function (name) { el.setAttribute(name, String(attrs[name])); });
  (children || []).forEach(function (child) {
    el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  });
  return el;
}

/** A bar per UTC day: checks of the flag in the selected environment over the last 30 days. */
async function renderChecksChart(box, flag, env) {
  var result = await api('GET', appPath('/flags/' + enc(flag.key) + '/checks?days=30&envId=' + enc(env.id)));
  var days = result.data.length ? result.data[0].days : [];
  var total = days.reduce(function (n, d) { return n + d.checkCount; }, 0);
  var max = Math.max(1, Math.max.apply(null, days.map(function (d) { return d.checkCount; })));
  var width = 600, height = 120, pad = 18, barWidth = (width - 2 * pad) / Math.max(1, days.length);
  var bars = days.map(function (d, i) {
    var barHeight = Math.round((d.checkCount / max) * (height - 2 * pad));
    return svg('rect', {
      x: (pad + i * barWidth + 1).toFixed(1), y: height - pad - barHeight,
      width: Math.max(1, barWidth - 2).toFixed(1), height: Math.max(barHeight, d.checkCount ? 1 : 0), class: 'bar',
    }, [svg('title', {}, [d.day + ': ' + d.checkCount + ' checks, ' + d.trackCount + ' tracks'])]);
  });
  var chart = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, class: 'chart', role: 'img', 'aria-label': 'Checks per day' }, bars.concat([
    svg('line', { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: 'axis' }),
    svg('text', { x: pad, y: height - 4, class: 'label' }, [result.since]),
    svg('text', { x: width - pad, y: height - 4, class: 'label end' }, [result.until]),
    svg('text', { x: pad, y: 12, class: 'label' }, ['max ' + max + '/day']),
  ]));
  append(box, [
    h('h3', null, 'Checks per day in ' + env.name),
    h('p', { class: 'muted', id: 'checks-total' }, total + ' checks in the last ' + days.length + ' days'),
    chart,
  ]);
}
`;
