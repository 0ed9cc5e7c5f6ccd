import { describe, expect, it } from 'vitest';
import { staffName } from './display-name';

describe('staffName', () => {
  it('is the physician name when set, trimmed', () => {
    expect(staffName({ physicianName: '  Dr. med. Anna Weiß ', firstName: 'Anna', lastName: 'Weiß' })).toBe('Dr. med. Anna Weiß');
  });

  it('is first and last name when the physician name is missing or blank', () => {
    expect(staffName({ physicianName: null, firstName: 'Jörg', lastName: 'Müller' })).toBe('Jörg Müller');
    expect(staffName({ physicianName: '   ', firstName: 'Jörg', lastName: 'Müller' })).toBe('Jörg Müller');
    expect(staffName({ firstName: '', lastName: 'Müller' })).toBe('Müller');
  });

  it('is empty when every name is', () => {
    expect(staffName({ physicianName: '', firstName: '', lastName: '' })).toBe('');
  });
});
