// Valid values for a schema: the contract's examples first, then openapi-sampler's sample (valid by
// construction), then seeded random values from fast-check, so every run with the same `--seed` sends the
// same requests. The random generator follows the schema keywords the contract uses; anything it does not
// know falls back to the sampler's value.
import fc from 'fast-check';
import { sample } from 'openapi-sampler';
import { deref, type Json } from './contract';

/** The properties and required names of an object schema, `allOf` parts merged. */
export function objectShape(document: Json, schema: Json): { properties: Record<string, Json>; required: string[]; closed: boolean } {
  const resolved = deref(document, schema, '').node ?? {};
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  let closed = resolved.additionalProperties === false || resolved.unevaluatedProperties === false;
  for (const part of [resolved, ...((resolved.allOf as Json[] | undefined) ?? [])]) {
    const node = deref(document, part, '').node ?? {};
    if (node !== resolved && (node.allOf || node.properties)) {
      const inner = objectShape(document, node);
      Object.assign(properties, inner.properties);
      inner.required.forEach((name) => required.add(name));
      closed ||= inner.closed;
      continue;
    }
    for (const [name, property] of Object.entries((node.properties as Json | undefined) ?? {})) {
      properties[name] = deref(document, property, '').node;
    }
    ((node.required as string[] | undefined) ?? []).forEach((name) => required.add(name));
  }
  return { properties, required: [...required], closed };
}

export function sampleOf(document: Json, schema: Json): unknown {
  try {
    return sample(schema as never, { skipReadOnly: true, quiet: true }, document);
  } catch {
    return undefined;
  }
}

function typesOf(schema: Json): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, minLength + 60);
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= maxLength || schema.maxLength === undefined);
    case 'date':
      return fc.date({ min: new Date('1920-01-01'), max: new Date('2025-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    default:
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern as string)).filter((s) => s.length >= minLength && s.length <= ((schema.maxLength as number | undefined) ?? Infinity));
      return fc.string({ minLength, maxLength, unit: 'grapheme' });
  }
}

/** A fast-check arbitrary of valid values for `schema` (resolved against `document`). */
export function arbitraryOf(document: Json, rawSchema: Json, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(document, rawSchema, '').node ?? {};
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => arbitraryOf(document, choice, depth + 1)));
  if (schema.allOf) {
    const shape = objectShape(document, schema);
    return objectArbitrary(document, shape.properties, shape.required, depth);
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.constant(sampleOf(document, schema) ?? null);
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 100_000 });
        case 'number':
          return fc.double({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 100_000, noNaN: true, noDefaultInfinity: true });
        case 'string':
          return stringArbitrary(schema);
        case 'array': {
          if (depth > 4) return fc.constant([]);
          const minLength = (schema.minItems as number | undefined) ?? 0;
          const maxLength = Math.min((schema.maxItems as number | undefined) ?? 4, minLength + 4);
          const items = arbitraryOf(document, (schema.items as Json | undefined) ?? {}, depth + 1);
          return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
        }
        case 'object': {
          const shape = objectShape(document, schema);
          return objectArbitrary(document, shape.properties, shape.required, depth);
        }
        default:
          return fc.constant(sampleOf(document, schema) ?? null);
      }
    }),
  );
}

function objectArbitrary(document: Json, properties: Record<string, Json>, required: string[], depth: number): fc.Arbitrary<unknown> {
  if (depth > 5) return fc.constant({});
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.readOnly) continue;
    record[name] = arbitraryOf(document, property, depth + 1);
  }
  return fc.record(record, { requiredKeys: required.filter((name) => name in record) });
}

/** One seeded random value of an arbitrary: the same seed gives the same value. */
export function pick<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0];
}
