import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { setToken } from './auth-storage';
import { forgetRecentPatient, recentPatients, rememberPatient } from './recent-patients';
import { endSession, startSession } from './session';

const patient = (n: number) => ({ id: `p${n}`, name: `Name${n}`, secondName: `Family${n}` });

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('recently opened patients', () => {
  it('keeps the last five per user, newest first, each once', () => {
    setToken('t', true);
    for (const n of [1, 2, 3, 4, 5, 6, 3]) rememberPatient('u1', patient(n));
    expect(recentPatients('u1').map((p) => p.id)).toEqual(['p3', 'p6', 'p5', 'p4', 'p2']);
    expect(recentPatients('u2')).toEqual([]);
    forgetRecentPatient('u1', 'p6');
    expect(recentPatients('u1').map((p) => p.id)).toEqual(['p3', 'p5', 'p4', 'p2']);
  });

  it('lives beside the token and is forgotten at logout and at the next sign-in', () => {
    setToken('t', false);
    rememberPatient('u1', patient(1));
    expect(sessionStorage.getItem('recentPatients:u1')).toContain('p1');
    expect(localStorage.getItem('recentPatients:u1')).toBeNull();

    endSession(new QueryClient());
    expect(recentPatients('u1')).toEqual([]);
    expect(sessionStorage.getItem('recentPatients:u1')).toBeNull();

    setToken('t', true);
    rememberPatient('u1', patient(2));
    startSession(new QueryClient(), 'next', true);
    expect(recentPatients('u1')).toEqual([]);
  });

  it('ignores what it did not write', () => {
    setToken('t', true);
    localStorage.setItem('recentPatients:u1', '{"not": "a list"}');
    expect(recentPatients('u1')).toEqual([]);
    localStorage.setItem('recentPatients:u1', '[{"id": 1}, {"id": "p1", "name": "A", "secondName": "B"}]');
    expect(recentPatients('u1')).toEqual([{ id: 'p1', name: 'A', secondName: 'B' }]);
    localStorage.setItem('recentPatients:u1', 'not json');
    expect(recentPatients('u1')).toEqual([]);
  });
});
