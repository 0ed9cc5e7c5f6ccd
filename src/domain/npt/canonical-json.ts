// The canonical JSON form the parameter set's checksum is computed over. It is the JSON Canonicalization
// Scheme (RFC 8785) restricted to what a manifest can hold: object keys sorted by UTF-16 code units at
// every level, no whitespace, numbers as ECMAScript prints them, strings escaped as JSON.stringify does.
// Another implementation (the laser's firmware) can reproduce it from docs/npt-format.md alone.

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Canonical JSON of plain JSON data (null, booleans, finite numbers, strings, arrays, plain objects).
 * Object members whose value is `undefined` are left out, as JSON.stringify does; anything else that JSON
 * cannot express (NaN, Infinity, undefined in an array, functions, bigint, class instances) throws a
 * TypeError, because a checksum over a silently altered value would be worse than none.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
      // JSON.stringify prints numbers with ECMAScript's Number::toString (and -0 as 0), as RFC 8785 asks.
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value
          .map((element: unknown) => {
            if (element === undefined) throw new TypeError('canonicalJson: undefined in an array');
            return canonicalJson(element);
          })
          .join(',')}]`;
      }
      if (!isPlainObject(value)) throw new TypeError('canonicalJson: not a plain object');
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}
