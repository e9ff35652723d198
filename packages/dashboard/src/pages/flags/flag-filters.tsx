import { useEffect, useState } from 'preact/hooks';
import type { ListFlagsQuery, StageHeader, UserHeader } from '../../api/types.js';
import { SelectField, TextField } from '../../components/field.js';

export interface Filters {
  search: string;
  stageId: string;
  ownerUserId: string;
  /** 'false': live flags (the default), 'true': archived only, '': both. */
  archived: '' | 'true' | 'false';
  stale: '' | 'true' | 'false';
}

export const NO_FILTERS: Filters = { search: '', stageId: '', ownerUserId: '', archived: 'false', stale: '' };

export function queryOf(f: Filters): Partial<ListFlagsQuery> {
  return {
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.stageId ? { stageId: f.stageId } : {}),
    ...(f.ownerUserId ? { ownerUserId: f.ownerUserId } : {}),
    ...(f.archived ? { archived: f.archived === 'true' } : {}),
    ...(f.stale ? { stale: f.stale === 'true' } : {}),
  };
}

/** Search (debounced while typing) and the filters the list API offers. */
export function FlagFilters({ value, onChange, stages, members }: { value: Filters; onChange: (f: Filters) => void; stages: StageHeader[]; members: UserHeader[] }) {
  const [search, setSearch] = useState(value.search);
  useEffect(() => {
    if (search === value.search) return undefined;
    const timer = setTimeout(() => onChange({ ...value, search }), 250);
    return () => clearTimeout(timer);
  }, [search]);
  return (
    <div class="inline-fields filters" role="search">
      <TextField label="Search" type="search" value={search} onInput={setSearch} placeholder="Key, name or description" />
      <SelectField label="Stage" value={value.stageId} onChange={(stageId) => onChange({ ...value, stageId })} options={[{ value: '', label: 'Any stage' }, ...stages.map((s) => ({ value: s.id, label: s.name }))]} />
      <SelectField
        label="Owner"
        value={value.ownerUserId}
        onChange={(ownerUserId) => onChange({ ...value, ownerUserId })}
        options={[{ value: '', label: 'Anyone' }, ...members.map((m) => ({ value: m.id, label: m.name }))]}
      />
      <SelectField
        label="Archived"
        value={value.archived}
        onChange={(archived) => onChange({ ...value, archived: archived as Filters['archived'] })}
        options={[
          { value: 'false', label: 'Live flags' },
          { value: 'true', label: 'Archived flags' },
          { value: '', label: 'Both' },
        ]}
      />
      <SelectField
        label="Health"
        value={value.stale}
        onChange={(stale) => onChange({ ...value, stale: stale as Filters['stale'] })}
        options={[
          { value: '', label: 'Any' },
          { value: 'true', label: 'Stale' },
          { value: 'false', label: 'Not stale' },
        ]}
      />
    </div>
  );
}
