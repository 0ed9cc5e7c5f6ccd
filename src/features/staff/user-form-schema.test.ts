import { describe, expect, it } from 'vitest';
import { isNewAddress, userBodyOf, userFormSchema } from './user-form-schema';

const values = { firstName: ' Lena ', lastName: 'Hoffmann', email: ' lena@clinic.example ', role: 'clinic_physicians' as const, physicianName: 'Dr. Lena Hoffmann' };

describe('user form', () => {
  it('trims what the server trims and refuses blanks and bad addresses', () => {
    expect(userFormSchema.parse(values)).toMatchObject({ firstName: 'Lena', email: 'lena@clinic.example' });
    const failed = userFormSchema.safeParse({ ...values, firstName: '  ', email: 'lena@' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['email', 'firstName']);
  });

  it('sends the physician name for physicians only, booleans as 1 or 0, the avatar as a file', () => {
    const parsed = userFormSchema.parse(values);
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'me.jpg', { type: 'image/jpeg' });
    expect(userBodyOf(parsed, { kind: 'replace', file }, true)).toEqual({ ...parsed, avatar: file, draft: '1' });
    expect(userBodyOf({ ...parsed, role: 'clinic_nurses' }, { kind: 'remove' }, false)).toEqual({
      ...parsed,
      role: 'clinic_nurses',
      physicianName: '',
      removeAvatar: '1',
      draft: '0',
    });
    expect(userBodyOf(parsed, { kind: 'keep' }, undefined)).not.toHaveProperty('draft');
  });

  it('counts another spelling of the same address as no change', () => {
    expect(isNewAddress('Lena@Clinic.example', 'lena@clinic.example')).toBe(false);
    expect(isNewAddress('lena.h@clinic.example', 'lena@clinic.example')).toBe(true);
  });
});
