import { Type, type Static } from '@sinclair/typebox';
import type { Storage } from '../storage/port.js';
import type { AppRecord } from '../storage/records.js';

/**
 * The flag manifest of the OpenFeature CLI's Manifest Management API (`GET /openfeature/v0/manifest`, open-feature/cli
 * `api/v0/sync.yaml`), which `openfeature pull` reads and its code generators (TypeScript, React, Go, …) turn into
 * typed accessors.
 */
export const MANIFEST_FLAG_TYPES = ['boolean', 'string', 'integer', 'float', 'object'] as const;
export type ManifestFlagType = (typeof MANIFEST_FLAG_TYPES)[number];

export const ManifestFlagSchema = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    type: Type.Union(MANIFEST_FLAG_TYPES.map((t) => Type.Literal(t)), {
      description:
        'boolean for a flag without config payloads; else the type every payload of its variants (in every ' +
        'environment) shares: string, integer, float (numbers not all integers), object (objects, arrays, or mixed)',
    }),
    description: Type.Optional(Type.String()),
    defaultValue: Type.Unknown({
      description: "The value code falls back to: false, '', 0 or {} by type (what a flag with no matching variant means)",
    }),
  },
  { $id: 'ManifestFlag' },
);
export type ManifestFlag = Static<typeof ManifestFlagSchema>;

export const ManifestSchema = Type.Object({ flags: Type.Array(ManifestFlagSchema) }, { $id: 'Manifest' });
export type Manifest = Static<typeof ManifestSchema>;

const DEFAULTS: Record<ManifestFlagType, unknown> = { boolean: false, string: '', integer: 0, float: 0, object: {} };

function typeOf(payload: unknown): ManifestFlagType {
  if (typeof payload === 'string') return 'string';
  if (typeof payload === 'number') return Number.isInteger(payload) ? 'integer' : 'float';
  // A payload that is itself a boolean is answered as a boolean by OFREP and the provider alike.
  if (typeof payload === 'boolean') return 'boolean';
  return 'object';
}

/** The one type all payloads share; integers and floats together are floats; anything else mixed is an object. */
export function manifestType(payloads: readonly unknown[]): ManifestFlagType {
  const types = new Set(payloads.filter((p) => p !== null && p !== undefined).map(typeOf));
  if (types.size === 0) return 'boolean';
  if (types.size === 1) return [...types][0]!;
  if (types.size === 2 && types.has('integer') && types.has('float')) return 'float';
  return 'object';
}

/**
 * The manifest of one app: its flags that are not archived, by key, each typed from the payloads of its config
 * variants across the app's environments (OFREP and the OpenFeature provider answer those payloads as values).
 */
export async function buildManifest(storage: Storage, app: AppRecord): Promise<Manifest> {
  const flags = (await storage.flags.listByApp(app.id)).filter((f) => !f.archived);
  const payloads = new Map<string, unknown[]>();
  for (const env of await storage.environments.listByApp(app.id)) {
    for (const row of await storage.targeting.listByEnv(env.id)) {
      const list = payloads.get(row.flagId) ?? [];
      for (const variant of row.variants) list.push(variant.payload);
      payloads.set(row.flagId, list);
    }
  }
  return {
    flags: flags
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((flag) => {
        const type = manifestType(payloads.get(flag.id) ?? []);
        return {
          key: flag.key,
          name: flag.name,
          type,
          ...(flag.description ? { description: flag.description } : {}),
          defaultValue: DEFAULTS[type],
        };
      }),
  };
}
