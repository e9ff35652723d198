import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Entity } from '../api/types.js';

/** Suggestions shown at once: enough to pick from, few enough to read; typing narrows them. */
export const SUGGESTIONS = 10;
const DEBOUNCE_MS = 200;
/** The list route's largest page (ENTITY_SEARCH_LIMIT_MAX). */
const LIMIT_MAX = 200;

/**
 * Picks a stored user or company (ARIA 1.2 combobox with a listbox popup): typing searches the list route by id
 * prefix or name; ↑/↓ move through the suggestions, Enter picks the active one (or the typed id as is), Escape
 * closes. `search` asks the list route (`GET …/users?search=&limit=`); `exclude` are ids not to suggest (added).
 */
export function EntityCombobox(props: {
  label: string;
  search: (text: string, limit: number) => Promise<Entity[]>;
  exclude: string[];
  disabled?: boolean;
  error?: string[];
  onPick: (id: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [found, setFound] = useState<{ for: string; rows: Entity[] } | undefined>();
  const [failed, setFailed] = useState(false);
  // Closing on blur waits for a click on an option; focusing or typing again keeps the list open.
  const closing = useRef<ReturnType<typeof setTimeout>>();
  const keepOpen = () => {
    clearTimeout(closing.current);
    setOpen(true);
  };
  useEffect(() => () => clearTimeout(closing.current), []);

  useEffect(() => {
    if (!open) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      props
        .search(text.trim(), Math.min(LIMIT_MAX, SUGGESTIONS + props.exclude.length))
        .then((rows) => live && (setFound({ for: text, rows }), setFailed(false)))
        .catch(() => live && setFailed(true));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.search, text, open]);

  const options = (found?.rows ?? []).filter((e) => !props.exclude.includes(e.id)).slice(0, SUGGESTIONS);
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const pick = (entityId: string) => {
    props.onPick(entityId);
    setText('');
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (!options.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + options.length + (a < 0 && step < 0 ? 1 : 0)) % options.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = open && active >= 0 ? options[active]?.id : text.trim();
      if (chosen) pick(chosen);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };
  const status = !open ? '' : failed ? 'The search failed.' : !found ? 'Searching…' : options.length ? `${options.length} suggestion${options.length === 1 ? '' : 's'}` : 'No stored match; Enter adds the id as typed.';
  const described = [`${id}-hint`, props.error?.length ? `${id}-error` : ''].filter(Boolean).join(' ');

  return (
    <div class={`field combobox${props.error?.length ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <div class="combobox-anchor">
        <input
          id={id}
          type="text"
          role="combobox"
          autocomplete="off"
          aria-autocomplete="list"
          aria-expanded={open && options.length > 0}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 && options[active] ? optionId(active) : undefined}
          aria-invalid={props.error?.length ? true : undefined}
          aria-describedby={described}
          disabled={props.disabled}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            keepOpen();
            setActive(-1);
          }}
          onFocus={keepOpen}
          onBlur={() => {
            closing.current = setTimeout(() => setOpen(false), 150);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label={`${props.label}: suggestions`} class="combobox-list" hidden={!open || !options.length}>
          {options.map((e, i) => (
            <li
              key={e.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              // mousedown, not click: picking must happen before the input's blur closes the list.
              onMouseDown={(ev) => {
                ev.preventDefault();
                pick(e.id);
              }}
            >
              <span class="combobox-id">{e.id}</span>
              {e.name ? <span class="muted"> {e.name}</span> : null}
            </li>
          ))}
        </ul>
      </div>
      <p class="hint" id={`${id}-hint`}>
        Type the start of an id or part of a name; ↑ ↓ choose, Enter adds.
      </p>
      <p class="visually-hidden" role="status">
        {status}
      </p>
      {props.error?.length ? (
        <p class="field-error" id={`${id}-error`}>
          {props.error.join('; ')}
        </p>
      ) : null}
    </div>
  );
}
