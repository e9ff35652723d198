/**
 * TypeBox schemas are JSON Schema (2020-12 compatible) objects plus symbol-keyed metadata. OpenAPI 3.1 takes them
 * as they are, except for two things this module fixes while copying: a schema with an `$id` becomes a named
 * component referenced by `#/components/schemas/<id>` (TypeBox's `$ref: "Filter"` resolves against the `$id`
 * only inside the one schema it was built in), and TypeBox-only types (`Date`, `Uint8Array`, …) lose their
 * non-JSON `type` so that the document stays valid.
 */

type Json = Record<string, unknown>;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords whose value is one schema. */
const SCHEMA_KEYS = new Set([
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_LIST_KEYS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Component names may only use `[A-Za-z0-9._-]` (OpenAPI 3.1, "Components Object"). */
const componentName = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, '_') || 'Schema';

export class ComponentRegistry {
  readonly schemas: Record<string, Json> = {};
  /** Schema object → component name, so a schema shared by many routes is emitted once. */
  private readonly names = new Map<object, string>();
  /** `$id` → component name, for `$ref: "<id>"` inside recursive schemas. */
  private readonly byId = new Map<string, string>();

  /** A copy of `schema` fit for an OpenAPI document; `$id` schemas come back as `$ref`s. */
  convert(schema: unknown): Json {
    if (!isObject(schema)) return {};
    const id = typeof schema['$id'] === 'string' ? schema['$id'] : undefined;
    if (id === undefined) return this.copy(schema);
    return { $ref: `#/components/schemas/${this.register(schema, id)}` };
  }

  private register(schema: Json, id: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    let name = componentName(id);
    // Two different schemas claiming one $id: keep both, numbered, rather than documenting the wrong one.
    for (let n = 2; this.schemas[name] !== undefined && !this.sameAs(name, schema); n++) name = `${componentName(id)}_${n}`;
    this.names.set(schema, name);
    if (!this.byId.has(id)) this.byId.set(id, name);
    if (this.schemas[name] === undefined) {
      this.schemas[name] = {}; // placeholder first: recursive schemas reference themselves while being copied
      this.schemas[name] = this.copy(schema);
    }
    return name;
  }

  private sameAs(name: string, schema: Json): boolean {
    for (const [other, otherName] of this.names) {
      if (otherName === name) return JSON.stringify(other) === JSON.stringify(schema);
    }
    return false;
  }

  private copy(schema: Json): Json {
    const out: Json = {};
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      if (key === '$id') continue;
      if (key === '$ref' && typeof value === 'string') {
        out[key] = value.startsWith('#') ? value : `#/components/schemas/${this.byId.get(value) ?? componentName(value)}`;
      } else if (key === 'type') {
        const kept = Array.isArray(value) ? value.filter((t) => JSON_TYPES.has(String(t))) : value;
        if (typeof kept === 'string' ? JSON_TYPES.has(kept) : Array.isArray(kept) && kept.length) out[key] = kept;
      } else if (SCHEMA_KEYS.has(key) && isObject(value)) {
        out[key] = this.convert(value);
      } else if (SCHEMA_KEYS.has(key) && Array.isArray(value)) {
        out[key] = value.map((item) => this.convert(item));
      } else if (SCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
        out[key] = value.map((item) => this.convert(item));
      } else if (SCHEMA_MAP_KEYS.has(key) && isObject(value)) {
        out[key] = Object.fromEntries(Object.keys(value).map((name) => [name, this.convert(value[name])]));
      } else if (value !== undefined && typeof value !== 'function') {
        out[key] = value;
      }
    }
    return out;
  }
}
