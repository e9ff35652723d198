/**
 * Dashboard browser code: the targeting editor (rules of attribute conditions, a segment, a percentage rollout)
 * and specific users/companies. Rules the form cannot show (negations, OR groups, …) are kept as they are and
 * shown as JSON; the JSON view edits everything. See core.ts for the string rules.
 */
export const RULES_JS = String.raw`
var OPERATORS = ['IS', 'IS_NOT', 'ANY_OF', 'NOT_ANY_OF', 'CONTAINS', 'NOT_CONTAINS', 'GT', 'LT', 'AFTER', 'BEFORE',
  'DATE_AFTER', 'DATE_BEFORE', 'SET', 'NOT_SET', 'IS_TRUE', 'IS_FALSE'];
var NO_VALUE = ['SET', 'NOT_SET', 'IS_TRUE', 'IS_FALSE'];
var MULTI_VALUE = ['ANY_OF', 'NOT_ANY_OF'];
var ROLLOUT_MAX = 100000;

function andParts(filter) {
  return filter.type === 'group' && filter.operator === 'and' ? filter.filters : [filter];
}

/** A stored rule as an editable model, or { advanced } when the form cannot represent it. */
function ruleToModel(rule) {
  var model = { segmentId: rule.segmentId || '', conditions: [], rollout: null, advanced: null };
  var parts = andParts(rule.filter);
  for (var i = 0; i < parts.length; i++) {
    var f = parts[i];
    if (f.type === 'context') model.conditions.push({ field: f.field, operator: f.operator, values: f.values.join(', ') });
    else if (f.type === 'rolloutPercentage' && !model.rollout) model.rollout = { attribute: f.partialRolloutAttribute, percent: f.partialRolloutThreshold / (ROLLOUT_MAX / 100) };
    else if (f.type === 'constant' && f.value === true && parts.length === 1) continue;
    else return { segmentId: model.segmentId, conditions: [], rollout: null, advanced: rule.filter };
  }
  return model;
}

function modelToRule(model) {
  var rule = {};
  if (model.advanced) rule.filter = model.advanced;
  else {
    var filters = model.conditions.map(function (c) {
      var values = NO_VALUE.indexOf(c.operator) >= 0 ? []
        : MULTI_VALUE.indexOf(c.operator) >= 0 ? c.values.split(',').map(function (v) { return v.trim(); }).filter(Boolean)
        : [c.values.trim()];
      return { type: 'context', field: c.field.trim(), operator: c.operator, values: values };
    });
    if (model.rollout) {
      filters.push({ type: 'rolloutPercentage', partialRolloutAttribute: model.rollout.attribute.trim(), partialRolloutThreshold: Math.round(Number(model.rollout.percent) * (ROLLOUT_MAX / 100)) });
    }
    rule.filter = filters.length === 0 ? { type: 'constant', value: true } : filters.length === 1 ? filters[0] : { type: 'group', operator: 'and', filters: filters };
  }
  if (model.segmentId) rule.segmentId = model.segmentId;
  return rule;
}

async function renderTargeting(box, flag, env) {
  var targeting = await api('GET', appPath('/flags/' + enc(flag.key) + '/targeting/' + enc(env.id)));
  var models = targeting.rules.map(ruleToModel);
  var status = h('p', { class: 'notice', id: 'targeting-status' });
  var list = h('div', { class: 'rules' });
  var json = h('textarea', { class: 'json', rows: 12, hidden: true, 'aria-label': 'Rules as JSON' });
  var jsonMode = false;
  var draw = function () {
    clear(list);
    if (!models.length) append(list, h('p', { class: 'muted' }, 'No rules: the flag is off in ' + env.name + ' (except for specific targets below).'));
    models.forEach(function (model, index) { list.appendChild(ruleCard(model, index, models, draw)); });
  };
  var toggle = h('button', { type: 'button', onclick: function () {
    if (!jsonMode) json.value = JSON.stringify(models.map(modelToRule), null, 2);
    else {
      try { models = JSON.parse(json.value).map(ruleToModel); } catch (error) { fail(status, 'Invalid JSON: ' + error.message); return; }
      draw();
    }
    jsonMode = !jsonMode;
    json.hidden = !jsonMode;
    list.hidden = jsonMode;
    toggle.textContent = jsonMode ? 'Form' : 'JSON';
  } }, 'JSON');
  var save = h('button', { type: 'button', class: 'primary', id: 'save-targeting', onclick: async function () {
    try {
      var rules = jsonMode ? JSON.parse(json.value) : models.map(modelToRule);
      var result = await api('PUT', appPath('/flags/' + enc(flag.key) + '/targeting/' + enc(env.id)), { rules: rules });
      models = result.targeting.rules.map(ruleToModel);
      draw();
      notice(status, 'ok', 'Saved — flagStateVersion ' + result.flagStateVersion + ' in ' + env.name + ' (targeting version ' + result.targeting.version + ')');
      if (state.afterChange) state.afterChange();
    } catch (error) {
      fail(status, error);
    }
  } }, 'Save rules');
  append(box, [
    h('div', { class: 'toolbar' }, [
      h('h3', null, 'Targeting in ' + env.name),
      h('span', { class: 'muted' }, 'The flag is on when any rule matches.'),
      h('span', { class: 'spacer' }),
      toggle,
    ]),
    list,
    json,
    h('div', { class: 'actions' }, [
      h('button', { type: 'button', id: 'add-rule', onclick: function () { models.push({ segmentId: '', conditions: [], rollout: null, advanced: null }); draw(); } }, 'Add rule'),
      save,
    ]),
    status,
  ]);
  draw();
}

function ruleCard(model, index, models, redraw) {
  var segment = h('select', { 'aria-label': 'Segment', onchange: function () { model.segmentId = segment.value; } },
    [h('option', { value: '' }, 'Any segment')].concat(state.app.segments.map(function (s) {
      return h('option', { value: s.id, selected: s.id === model.segmentId }, s.name);
    })));
  var remove = h('button', { type: 'button', class: 'link', onclick: function () { models.splice(index, 1); redraw(); } }, 'Remove rule');
  var card = h('div', { class: 'rule', 'data-rule-index': index }, [
    h('div', { class: 'rule-head' }, [h('strong', null, 'Rule ' + (index + 1)), segment, h('span', { class: 'spacer' }), remove]),
  ]);
  if (model.advanced) {
    append(card, [h('p', { class: 'muted' }, 'Shown as JSON (edit it in the JSON view):'), h('pre', null, JSON.stringify(model.advanced, null, 2))]);
    return card;
  }
  model.conditions.forEach(function (c, ci) { card.appendChild(conditionRow(model, c, ci, redraw)); });
  if (model.rollout) card.appendChild(rolloutRow(model, redraw));
  if (!model.conditions.length && !model.rollout) append(card, h('p', { class: 'muted' }, model.segmentId ? 'Everyone in the segment.' : 'Everyone.'));
  append(card, h('div', { class: 'actions' }, [
    h('button', { type: 'button', class: 'link add-condition', onclick: function () {
      model.conditions.push({ field: 'user.id', operator: 'IS', values: '' });
      redraw();
    } }, '+ Condition'),
    model.rollout ? null : h('button', { type: 'button', class: 'link add-rollout', onclick: function () {
      model.rollout = { attribute: 'user.id', percent: 50 };
      redraw();
    } }, '+ Percentage rollout'),
  ]));
  return card;
}

function conditionRow(model, c, ci, redraw) {
  var values = h('input', { class: 'values', value: c.values, placeholder: MULTI_VALUE.indexOf(c.operator) >= 0 ? 'a, b, c' : 'value', 'aria-label': 'Values',
    hidden: NO_VALUE.indexOf(c.operator) >= 0, oninput: function () { c.values = values.value; } });
  return h('div', { class: 'condition' }, [
    h('input', { class: 'field', value: c.field, placeholder: 'company.plan', 'aria-label': 'Attribute', list: 'attribute-hints', oninput: function (e) { c.field = e.target.value; } }),
    h('select', { class: 'operator', 'aria-label': 'Operator', onchange: function (e) { c.operator = e.target.value; redraw(); } },
      OPERATORS.map(function (op) { return h('option', { value: op, selected: op === c.operator }, op); })),
    values,
    h('button', { type: 'button', class: 'link', 'aria-label': 'Remove condition', onclick: function () { model.conditions.splice(ci, 1); redraw(); } }, '×'),
  ]);
}

function rolloutRow(model, redraw) {
  var r = model.rollout;
  return h('div', { class: 'condition rollout' }, [
    h('span', null, 'Rollout'),
    h('input', { type: 'number', class: 'percent', min: 0, max: 100, step: 0.001, value: r.percent, 'aria-label': 'Percent', oninput: function (e) { r.percent = e.target.value; } }),
    h('span', null, '% by'),
    h('input', { class: 'field', value: r.attribute, 'aria-label': 'Rollout attribute', list: 'attribute-hints', oninput: function (e) { r.attribute = e.target.value; } }),
    h('button', { type: 'button', class: 'link', 'aria-label': 'Remove rollout', onclick: function () { model.rollout = null; redraw(); } }, '×'),
  ]);
}

/** Users and companies targeted directly (management rows 9 and 11), in one environment. */
async function renderSpecificTargets(box, flag, env) {
  var targets = await api('GET', appPath('/flags/' + enc(flag.key) + '/specific-targets/' + enc(env.id)));
  var status = h('p', { class: 'notice', id: 'specific-status' });
  var change = async function (kind, id, value) {
    try {
      var entityPath = appPath('/envs/' + enc(env.id) + (kind === 'user' ? '/users/' : '/companies/') + enc(id));
      // Targeting needs the user or company stored (else 404): upsert it first. An empty body merges nothing, so
      // an entity that already exists keeps its name and attributes.
      if (value) await api('PUT', entityPath, {});
      var result = await api('PATCH', entityPath + '/flags', {
        updates: [{ flagKey: flag.key, specificTargetValue: value }],
      });
      clear(box);
      await renderSpecificTargets(box, flag, env);
      notice(box.querySelector('#specific-status'), 'ok', (value ? 'Targeted ' : 'Removed ') + kind + ' ' + id + ' — flagStateVersion ' + result.flagStateVersion + ' in ' + env.name);
      if (state.afterChange) state.afterChange();
    } catch (error) {
      fail(status, error);
    }
  };
  var column = function (kind, ids, label) {
    var input = h('input', { id: 'add-' + kind, placeholder: kind + ' id', 'aria-label': 'Add ' + kind });
    return h('div', null, [
      h('h4', null, label),
      ids.length ? h('ul', { class: 'chips', id: kind + '-targets' }, ids.map(function (id) {
        return h('li', null, [h('code', null, id), h('button', { type: 'button', class: 'link', 'aria-label': 'Remove ' + id, onclick: function () { change(kind, id, null); } }, '×')]);
      })) : h('p', { class: 'muted' }, 'None'),
      h('form', { class: 'inline-form', onsubmit: function (event) {
        event.preventDefault();
        if (input.value.trim()) change(kind, input.value.trim(), true);
      } }, [input, h('button', { type: 'submit', id: 'target-' + kind }, 'Target')]),
    ]);
  };
  append(box, [
    h('h3', null, 'Specific users and companies in ' + env.name),
    h('div', { class: 'grid2' }, [column('user', targets.users, 'Users'), column('company', targets.companies, 'Companies')]),
    status,
  ]);
}
`;
