import { describe, expect, it } from 'vitest';
import * as zod from 'zod';
import { z } from 'zod';
import { globalConfig } from 'zod/v4/core';

describe("'zod' in the SPA", () => {
  it('is zod in its CSP-safe mode, with the same exports', () => {
    expect(globalConfig.jitless).toBe(true);
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(zod.email().safeParse('no address').success).toBe(false);
  });
});
