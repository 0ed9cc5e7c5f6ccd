// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bodyVariants, malformedJson, malformedMultipart, withRawKey } from './mutations';

describe('body variants', () => {
  it('puts prototype keys into the JSON text as own keys, which an object literal cannot', () => {
    const variants = bodyVariants({ ids: ['a'] });
    const proto = variants.find((v) => v.label === 'extra field __proto__')!;
    expect(proto.text).toBe('{"__proto__":true,"ids":["a"]}');
    expect(Object.keys(JSON.parse(proto.text))).toEqual(['__proto__', 'ids']);
    expect(variants.map((v) => v.label)).toEqual(expect.arrayContaining(['extra field constructor', 'extra field toString', 'missing ids', 'ids huge string']));
  });

  it('changes one field at a time, nested ones included, and leaves the valid value alone', () => {
    const valid = { settings: { pattern: 'hexagonal', spotSizeUm: 100 } };
    const variants = bodyVariants(valid);
    expect(variants.find((v) => v.label === 'missing settings.pattern')!.text).toBe('{"settings":{"spotSizeUm":100}}');
    expect(variants.find((v) => v.label === 'settings.spotSizeUm = -1')!.text).toBe('{"settings":{"pattern":"hexagonal","spotSizeUm":-1}}');
    expect(valid).toEqual({ settings: { pattern: 'hexagonal', spotSizeUm: 100 } });
  });

  it('adds a raw key to an empty object without a stray comma', () => {
    expect(withRawKey('{}', 'constructor', 'true')).toBe('{"constructor":true}');
  });
});

describe('malformed bodies', () => {
  it('cuts multipart before its closing boundary and offers no-boundary and wrong-boundary variants', () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n');
    const variants = malformedMultipart(body, 'b');
    expect(variants.find((v) => v.label === 'multipart cut before the closing boundary')!.body.toString()).not.toContain('--b--');
    expect(variants.find((v) => v.label === 'multipart without boundary')!.contentType).toBe('multipart/form-data');
  });

  it('puts invalid UTF-8 inside a string value, so only the encoding is wrong', () => {
    const variant = malformedJson('{"email":"a@b.c"}').find((v) => v.label === 'invalid UTF-8 bytes in a string')!;
    expect([...variant.body.subarray(10, 13)]).toEqual([0xff, 0xfe, 0xc3]);
    expect(variant.body.subarray(0, 10).toString()).toBe('{"email":"');
  });
});
