import { describe, expect, it } from 'vitest';
import {
  addDeviceBody,
  addDeviceBodyCameraMax,
  addDeviceBodyDescriptionMax,
  addDeviceBodyDeviceIdMax,
  addDeviceBodyOpticalHeadIdMax,
} from '@generated/zod/clinic/clinic.zod';
import { DEVICE_LIMITS, deviceInputOf, EMPTY_DEVICE_FORM } from './device-form';
import { deviceFormSchema } from './device-form-schema';

const valid = { deviceId: ' NAV-533-00633 ', opticalHeadId: 'OH-2317', camera: 'Fundus CCD 5MP', description: '' };
const errors = (input: unknown) => {
  const result = deviceFormSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('the add device form', () => {
  it('keeps to the contract’s limits', () => {
    expect(DEVICE_LIMITS).toEqual({ serial: addDeviceBodyDeviceIdMax, camera: addDeviceBodyCameraMax, description: addDeviceBodyDescriptionMax });
    expect(addDeviceBodyOpticalHeadIdMax).toBe(DEVICE_LIMITS.serial);
  });

  it('sends a trimmed device the contract accepts, without an empty description', () => {
    const body = deviceInputOf(deviceFormSchema.parse(valid));
    expect(body).toEqual({ deviceId: 'NAV-533-00633', opticalHeadId: 'OH-2317', camera: 'Fundus CCD 5MP' });
    expect(addDeviceBody.safeParse(body).success).toBe(true);
    expect(deviceInputOf(deviceFormSchema.parse({ ...valid, description: ' Room 3 ' }))).toHaveProperty('description', 'Room 3');
  });

  it('names every missing field; the description may stay empty', () => {
    expect(errors({ ...EMPTY_DEVICE_FORM, camera: '   ' })).toEqual({ deviceId: 'required', opticalHeadId: 'required', camera: 'required' });
  });

  it('takes letters, digits, ".", "_" and "-" in a serial, beginning with a letter or digit', () => {
    expect(errors({ ...valid, deviceId: 'NAV 533', opticalHeadId: '-OH' })).toEqual({ deviceId: 'serialCharacters', opticalHeadId: 'serialCharacters' });
    expect(errors({ ...valid, deviceId: 'a.b_c-9' })).toEqual({});
  });

  it('refuses what is too long', () => {
    expect(errors({ ...valid, deviceId: 'x'.repeat(65), camera: 'c'.repeat(121), description: 'd'.repeat(501) })).toEqual({
      deviceId: 'tooLong',
      camera: 'tooLong',
      description: 'tooLong',
    });
    expect(errors({ ...valid, deviceId: 'x'.repeat(64), camera: 'c'.repeat(120), description: 'd'.repeat(500) })).toEqual({});
  });
});
