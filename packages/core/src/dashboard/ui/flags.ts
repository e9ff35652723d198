/** Dashboard browser code: the flag list (search, columns) and the create form. See core.ts for the string rules. */
export const FLAGS_JS = String.raw`
var listQuery = { search: '', archived: false };

async function renderFlagList(main) {
  var search = h('input', { type: 'search', id: 'flag-search', placeholder: 'Search key, name or description', value: listQuery.search, 'aria-label': 'Search flags' });
  var archived = h('input', { type: 'checkbox', id: 'show-archived', checked: listQuery.archived });
  var tableBox = h('div', { id: 'flag-table' });
  var timer = null;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { listQuery.search = search.value; loadFlags(tableBox); }, 200);
  });
  archived.addEventListener('change', function () { listQuery.archived = archived.checked; loadFlags(tableBox); });
  append(main, [
    h('div', { class: 'toolbar' }, [
      h('h2', null, 'Flags'),
      search,
      h('label', { class: 'inline' }, [archived, ' Archived']),
      h('span', { class: 'spacer' }),
      h('button', { type: 'button', class: 'primary', id: 'new-flag', onclick: function () { openCreateForm(main); } }, 'New flag'),
    ]),
    h('div', { id: 'create-slot' }),
    tableBox,
  ]);
  await loadFlags(tableBox);
}

async function loadFlags(box) {
  var params = new URLSearchParams({ pageSize: '1000', sortBy: 'key', archived: String(listQuery.archived) });
  if (listQuery.search) params.set('search', listQuery.search);
  if (state.envId) params.set('envId', state.envId);
  var page = await api('GET', appPath('/flags?' + params.toString()));
  state.flags = page.data;
  clear(box);
  if (!page.data.length) {
    append(box, h('p', { class: 'muted' }, listQuery.search ? 'No flag matches.' : 'No flags yet.'));
    return;
  }
  var rows = page.data.map(function (flag) {
    return h('tr', { 'data-flag-key': flag.key }, [
      h('td', null, h('a', { href: '#/flags/' + enc(flag.key) }, h('code', null, flag.key))),
      h('td', null, flag.name),
      h('td', null, stageBadge(flag.stage)),
      h('td', null, flag.owner ? flag.owner.name : h('span', { class: 'muted' }, 'none')),
      h('td', null, flag.stale ? h('span', { class: 'badge warn' }, 'stale') : h('span', { class: 'muted' }, 'no')),
      h('td', { title: flag.lastCheckAt || '' }, relativeTime(flag.lastCheckAt)),
    ]);
  });
  append(box, [
    h('table', { class: 'flags' }, [
      h('thead', null, h('tr', null, ['Key', 'Name', 'Stage', 'Owner', 'Stale', 'Last check'].map(function (t) { return h('th', null, t); }))),
      h('tbody', null, rows),
    ]),
    h('p', { class: 'muted' }, page.totalCount + ' flag' + (page.totalCount === 1 ? '' : 's')),
  ]);
}

function stageOptions(selectedId, allowNone) {
  var options = state.app.stages.map(function (stage) {
    return h('option', { value: stage.id, selected: stage.id === selectedId }, stage.name);
  });
  if (allowNone) options.unshift(h('option', { value: '', selected: !selectedId }, 'No stage'));
  return options;
}

function memberOptions(selectedId) {
  return [h('option', { value: '', selected: !selectedId }, 'No owner')].concat(state.members.map(function (m) {
    return h('option', { value: m.id, selected: m.id === selectedId }, m.name);
  }));
}

function openCreateForm(main) {
  var slot = main.querySelector('#create-slot');
  if (slot.firstChild) return;
  var key = h('input', { id: 'new-flag-key', name: 'key', required: true, placeholder: 'new-checkout' });
  var name = h('input', { id: 'new-flag-name', name: 'name', required: true, placeholder: 'New checkout' });
  var description = h('textarea', { id: 'new-flag-description', name: 'description', rows: 2 });
  var stage = h('select', { id: 'new-flag-stage' }, stageOptions(null, true));
  var owner = h('select', { id: 'new-flag-owner' }, memberOptions(null));
  var status = h('p', { class: 'notice' });
  var keyTouched = false;
  key.addEventListener('input', function () { keyTouched = true; });
  name.addEventListener('input', function () {
    if (!keyTouched) key.value = name.value.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  });
  var form = h('form', { class: 'card', id: 'create-flag-form', onsubmit: async function (event) {
    event.preventDefault();
    var body = { key: key.value.trim(), name: name.value.trim() };
    if (description.value.trim()) body.description = description.value.trim();
    if (stage.value) body.stageId = stage.value;
    if (owner.value) body.ownerUserId = owner.value;
    try {
      var created = await api('POST', appPath('/flags'), body);
      location.hash = '#/flags/' + enc(created.flag.key);
    } catch (error) {
      fail(status, error);
    }
  } }, [
    h('h3', null, 'New flag'),
    h('div', { class: 'grid2' }, [
      h('label', null, ['Name', name]),
      h('label', null, ['Key', key]),
      h('label', null, ['Stage', stage]),
      h('label', null, ['Owner', owner]),
    ]),
    h('label', null, ['Description', description]),
    h('div', { class: 'actions' }, [
      h('button', { type: 'submit', class: 'primary', id: 'create-flag-submit' }, 'Create flag'),
      h('button', { type: 'button', onclick: function () { clear(slot); } }, 'Cancel'),
    ]),
    status,
  ]);
  slot.appendChild(form);
  name.focus();
}
`;
