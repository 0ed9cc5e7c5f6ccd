// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('reproduces the RFC 8785 example (numbers, strings, literals, key order)', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units at every level (RFC 8785 §3.2.3)', () => {
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const value = Object.fromEntries(keys.map((key, i) => [key, i]));
    // Compared as text: a parsed object would put the integer-like key "1" first whatever the order.
    expect(canonicalJson(value)).toBe('{"\\r":1,"1":3,"\u0080":5,"\u00f6":6,"\u20ac":0,"\ud83d\ude00":4,"\ufb33":2}');
    expect(canonicalJson({ b: { d: 1, c: [{ z: 1, a: 2 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"a":2,"z":1}],"d":1}}');
  });

  it('writes no whitespace and is stable under key order', () => {
    expect(canonicalJson({ x: 1, y: [1, 2] })).toBe(canonicalJson({ y: [1, 2], x: 1 }));
    expect(canonicalJson({ a: ' b ' })).toBe('{"a":" b "}');
  });

  it('prints -0 as 0 and keeps every double exact', () => {
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(Number(canonicalJson(5e-324))).toBe(5e-324);
  });

  it('leaves out undefined members, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('refuses what JSON cannot express', () => {
    for (const bad of [NaN, Infinity, -Infinity, [undefined], 10n, () => 1, Symbol('s'), new Date(0), new Map()]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
    }
    expect(() => canonicalJson({ nested: [1, { deep: NaN }] })).toThrow(TypeError);
  });
});
