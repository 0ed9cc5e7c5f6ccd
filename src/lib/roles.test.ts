import { describe, expect, it } from 'vitest';
import { areaOfRole, canonicalRole, roleHome } from './roles';

describe('roleHome', () => {
  it.each([
    ['clinic_it_admins', '/admin'],
    ['clinic_it_admin', '/admin'],
    ['clinic_physicians', '/physician/list'],
    ['clinic_physician', '/physician/list'],
    ['clinic_nurses', '/physician/list'],
    ['nurse', '/physician/list'],
  ])('sends %s to %s', (role, home) => {
    expect(roleHome(role)).toBe(home);
  });

  it.each([['admins'], ['service_engineers'], ['data_scientists'], ['physician'], [''], [null], [undefined], [42]])(
    'sends %j to /forbidden',
    (role) => {
      expect(roleHome(role)).toBe('/forbidden');
    },
  );

  it('does not mistake inherited object keys for roles', () => {
    expect(canonicalRole('toString')).toBeUndefined();
    expect(roleHome('constructor')).toBe('/forbidden');
  });
});

describe('canonicalRole and areaOfRole', () => {
  it('maps the singular login-hint spellings to the canonical plural', () => {
    expect(canonicalRole('clinic_physician')).toBe('clinic_physicians');
    expect(canonicalRole('nurse')).toBe('clinic_nurses');
    expect(canonicalRole('clinic_it_admin')).toBe('clinic_it_admins');
    expect(canonicalRole('data_scientists')).toBe('data_scientists');
  });

  it('gives roles without screens no area', () => {
    expect(areaOfRole('admins')).toBeUndefined();
    expect(areaOfRole('clinic_nurses')).toBe('physician');
    expect(areaOfRole('clinic_it_admins')).toBe('admin');
  });
});
