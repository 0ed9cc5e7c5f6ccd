// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken, readStorage, setToken } from './auth-storage';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

describe('auth storage', () => {
  it('prefers localStorage, then sessionStorage, else null', () => {
    expect(getToken()).toBeNull();
    sessionStorage.setItem('token', 'session');
    expect(getToken()).toBe('session');
    localStorage.setItem('token', 'local');
    expect(getToken()).toBe('local');
  });

  it('treats an empty stored token as none', () => {
    localStorage.setItem('token', '');
    expect(getToken()).toBeNull();
  });

  it('remembers in localStorage and drops the sessionStorage copy', () => {
    sessionStorage.setItem('token', 'old');
    setToken('new', true);
    expect(localStorage.getItem('token')).toBe('new');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('otherwise keeps it in sessionStorage and drops the localStorage copy', () => {
    localStorage.setItem('token', 'old');
    setToken('new', false);
    expect(sessionStorage.getItem('token')).toBe('new');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('clears both storages', () => {
    localStorage.setItem('token', 'a');
    sessionStorage.setItem('token', 'b');
    clearToken();
    expect(getToken()).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('does not throw when storage methods are blocked', () => {
    const blocked = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(blocked);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(blocked);
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(blocked);

    expect(getToken()).toBeNull();
    expect(readStorage('localStorage', 'i18nextLng')).toBeNull();
    expect(() => setToken('t', true)).not.toThrow();
    expect(() => clearToken()).not.toThrow();
  });

  it('does not throw when the storage object itself is inaccessible', () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    sessionStorage.setItem('token', 'session');
    expect(getToken()).toBe('session');
    expect(() => setToken('t', true)).not.toThrow();
  });
});
