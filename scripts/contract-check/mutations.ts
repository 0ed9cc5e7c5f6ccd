// Invalid (or at least unusual) variants of a valid request body or parameter value. Each variant says what
// was done to it; whether it is actually invalid is decided afterwards by validating it against the
// contract (an extra field is fine where a schema allows extra fields), so no variant is ever assumed
// invalid by name alone.

/** Strings that have broken servers before: control and zero-width characters, lone surrogates, RTL
 *  overrides, SQL and path fragments, markup, blank and whitespace-only text. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202eevil',
  '\u200b',
  '💥🏥👁️',
  "'; DROP TABLE patients; --",
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '%ff%fe',
  '${jndi:ldap://x}',
  '\r\nX-Injected: 1',
  'ÄÖÜäöüß',
];

/** Names that exist on every JavaScript object: a server that keeps fields in a plain object trips on them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** Long enough to pass any sensible length limit, short enough to stay well below body limits. */
export const HUGE_STRING_LENGTH = 70_000;

export interface BodyVariant {
  label: string;
  /** The JSON text to send (text, because `__proto__` as a key cannot be built as an object). */
  text: string;
}

type Path = (string | number)[];

function leafPaths(value: unknown, path: Path = [], depth = 0): Path[] {
  if (depth > 3 || value === null || typeof value !== 'object') return path.length ? [path] : [];
  const entries = Array.isArray(value) ? value.slice(0, 2).map((v, i) => [i, v] as const) : Object.entries(value as object);
  const nested = entries.flatMap(([key, child]) => leafPaths(child, [...path, key], depth + 1));
  return path.length ? [path, ...nested] : nested;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = clone(root);
  let at = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

function deleteAt(root: unknown, path: Path): unknown {
  const copy = clone(root);
  let at = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  if (Array.isArray(at)) at.splice(path[path.length - 1] as number, 1);
  else delete at[path[path.length - 1]];
  return copy;
}

/** A value of another JSON type than `value`'s, for type-confusion variants. */
export function otherTypes(value: unknown): unknown[] {
  const all: unknown[] = ['text', 12345, -1.5, true, null, [], {}, ['a'], { x: 1 }];
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  return all.filter((candidate) => kind(candidate) !== kind(value));
}

/** Inserts `"key": value` as the first member of the top-level object of a JSON text. */
export function withRawKey(json: string, key: string, valueText: string): string {
  const trimmed = json.trimStart();
  if (!trimmed.startsWith('{')) return json;
  const rest = trimmed.slice(1).trimStart();
  return `{${JSON.stringify(key)}:${valueText}${rest.startsWith('}') ? '' : ','}${rest}`;
}

const pathLabel = (path: Path) => path.map(String).join('.');

/** Every deterministic variant of a JSON body: types, missing and extra fields, prototype keys, huge and odd strings. */
export function bodyVariants(valid: unknown): BodyVariant[] {
  const variants: BodyVariant[] = [];
  const add = (label: string, value: unknown) => variants.push({ label, text: JSON.stringify(value) });
  const text = JSON.stringify(valid);

  for (const other of [[], null, 'text', 42, true]) add(`body is ${JSON.stringify(other)}`, other);
  if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
    add('empty object', {});
    for (const key of PROTOTYPE_KEYS) {
      variants.push({ label: `extra field ${key}`, text: withRawKey(text, key, 'true') });
      variants.push({ label: `extra field ${key} (object)`, text: withRawKey(text, key, '{"polluted":true}') });
    }
    variants.push({ label: 'extra field unexpected', text: withRawKey(text, 'unexpectedField', '"x"') });
  }
  for (const path of leafPaths(valid)) {
    const label = pathLabel(path);
    if (typeof path[path.length - 1] === 'string') add(`missing ${label}`, deleteAt(valid, path));
    const current = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], valid);
    for (const other of otherTypes(current).slice(0, 4)) add(`${label} as ${JSON.stringify(other)}`, setAt(valid, path, other));
    add(`${label} huge string`, setAt(valid, path, 'A'.repeat(HUGE_STRING_LENGTH)));
    if (typeof current === 'number') {
      for (const n of [-1, 0, 1e308, 2 ** 53 + 1, 0.5]) add(`${label} = ${n}`, setAt(valid, path, n));
    }
    if (typeof current === 'string') {
      for (const odd of ODD_STRINGS) add(`${label} odd string ${JSON.stringify(odd)}`, setAt(valid, path, odd));
      add(`${label} doubled`, setAt(valid, path, current + current));
    }
    if (Array.isArray(current)) {
      add(`${label} 1000 items`, setAt(valid, path, Array.from({ length: 1000 }, () => current[0] ?? 'x')));
      if (current.length) add(`${label} duplicated items`, setAt(valid, path, [...current, ...current]));
    }
  }
  return variants;
}

/** Variants of a path or query parameter value, as raw (already percent-encoded) text. */
export function parameterVariants(valid: string): { label: string; raw: string }[] {
  return [
    { label: 'not a uuid', raw: 'not-a-uuid' },
    { label: 'number', raw: '12345' },
    { label: 'negative', raw: '-1' },
    { label: 'fraction', raw: '1.5' },
    { label: 'huge number', raw: '1e400' },
    { label: 'empty', raw: '' },
    { label: 'invalid UTF-8 %ff%fe', raw: '%ff%fe' },
    { label: 'encoded NUL', raw: '%00' },
    { label: 'encoded slash', raw: '..%2F..%2Fetc%2Fpasswd' },
    { label: 'very long (8,000 characters)', raw: 'a'.repeat(8000) },
    { label: 'prototype key', raw: '__proto__' },
    { label: 'constructor', raw: 'constructor' },
    { label: 'uppercase', raw: encodeURIComponent(valid.toUpperCase()) },
    { label: 'trailing space', raw: `${encodeURIComponent(valid)}%20` },
  ];
}

/** Multipart bodies that are broken in the ways HTTP parsers must survive. */
export function malformedMultipart(valid: Buffer, boundary: string): { label: string; contentType: string; body: Buffer }[] {
  const text = valid.toString('latin1');
  const closing = text.lastIndexOf(`--${boundary}--`);
  return [
    { label: 'multipart without boundary', contentType: 'multipart/form-data', body: valid },
    { label: 'multipart with a wrong boundary', contentType: 'multipart/form-data; boundary=not-the-boundary', body: valid },
    {
      label: 'multipart cut before the closing boundary',
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.from(closing > 0 ? text.slice(0, closing) : text.slice(0, Math.floor(text.length / 2)), 'latin1'),
    },
    { label: 'multipart cut in a header', contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`, 'latin1') },
    { label: 'multipart empty body', contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.alloc(0) },
    { label: 'multipart JSON instead of parts', contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from('{"a":1}') },
  ];
}

/**
 * JSON bodies that are not well-formed (`rejected`), well-formed but odd (`validate`: judged by the schema),
 * or odd bytes a lenient decoder may accept (`lenient`: only the generic checks apply).
 */
export function malformedJson(valid: string): { label: string; body: Buffer; expect: 'rejected' | 'validate' | 'lenient' }[] {
  const bytes = Buffer.from(valid, 'utf8');
  // Inside the first string value, so the JSON stays well-formed and only its encoding is wrong.
  const inString = Buffer.byteLength(valid.slice(0, Math.max(0, valid.indexOf(':"') + 2)), 'utf8');
  const variants: { label: string; body: Buffer; expect: 'rejected' | 'validate' | 'lenient' }[] = [
    { label: 'truncated JSON', body: bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), expect: 'rejected' },
    { label: 'not JSON', body: Buffer.from('this is not json'), expect: 'rejected' },
    { label: 'trailing garbage', body: Buffer.from(`${valid}}}`), expect: 'rejected' },
    { label: 'deeply nested', body: Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`), expect: 'validate' },
    { label: 'byte order mark', body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), expect: 'lenient' },
  ];
  if (inString > 0) {
    variants.push({
      label: 'invalid UTF-8 bytes in a string',
      body: Buffer.concat([bytes.subarray(0, inString), Buffer.from([0xff, 0xfe, 0xc3]), bytes.subarray(inString)]),
      expect: 'lenient',
    });
  }
  return variants;
}
