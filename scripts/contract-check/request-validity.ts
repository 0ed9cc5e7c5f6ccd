// Whether a request part is valid by the contract. Mutated requests are judged here, so a variant counts as
// invalid (and must be refused) only when the contract's own schema says so. Parameters and form fields
// arrive as text, so they are validated with type coercion ("5" is an integer); JSON bodies without it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Json } from './contract';

export interface RequestValidity {
  json(pointer: string, value: unknown): boolean;
  text(pointer: string, value: unknown): boolean;
}

export function createRequestValidity(document: Json): RequestValidity {
  const make = (coerce: boolean) => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: coerce ? 'array' : false, useDefaults: false });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addFormat('byte', true);
    ajv.addSchema(document, 'contract');
    const cache = new Map<string, ValidateFunction | undefined>();
    return (pointer: string, value: unknown) => {
      if (!cache.has(pointer)) cache.set(pointer, ajv.getSchema(`contract#${pointer}`));
      const validate = cache.get(pointer);
      // Coercion rewrites the value it checks: hand it a copy.
      return validate ? Boolean(validate(coerce ? structuredClone({ v: value }).v : value)) : true;
    };
  };
  const json = make(false);
  const text = make(true);
  return { json, text };
}

/** Decodes a raw query or path value as a server would; undecodable bytes become U+FFFD. */
export function decodeRaw(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return Buffer.from(raw.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
      .toString('latin1')
      .replace(/[\u0080-\u00ff]/g, '\ufffd');
  }
}
