// What the server writes to the access log, as the access log screen names it: an IT admin reads each entry in
// their language, never as the server's name for it.
import { describe, expect, it } from 'vitest';
import deAccessLog from '../../locales/de/accessLog.json' with { type: 'json' };
import enAccessLog from '../../locales/en/accessLog.json' with { type: 'json' };
import { AUDIT_ACTIONS } from '../../server/services/audit-actions';
import { ACTION_GROUPS, actionKey } from '../../src/features/access-log/access-log-view';

describe('the actions of the access log', () => {
  it.each(AUDIT_ACTIONS)('names %s in English and German', (action) => {
    const key = actionKey(action);
    expect(key, `${action} has no entry in ACTION_GROUPS`).toBeDefined();
    for (const catalogue of [enAccessLog, deAccessLog]) {
      const text = (catalogue.actions as Record<string, string>)[key!];
      expect(text).toMatch(/\S/);
      expect(text).not.toContain(action);
    }
  });

  it('offers in its filter only actions the server writes', () => {
    const offered = Object.values(ACTION_GROUPS).flatMap((group) => Object.keys(group));
    expect(offered.filter((action) => !(AUDIT_ACTIONS as readonly string[]).includes(action))).toEqual([]);
  });
});
