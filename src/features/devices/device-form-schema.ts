/*
 * The "Add device" form's validation (zod, loaded with the form's first check). The contract's DeviceInput with
 * what the form adds: each value trimmed, and messages that are DeviceFieldError keys.
 */
import { z } from 'zod';
import { addDeviceBody, addDeviceBodyDeviceIdRegExp } from '@generated/zod/clinic/clinic.zod';
import { DEVICE_LIMITS, type DeviceFieldError } from './device-form';

const issue = (message: DeviceFieldError) => ({ message });
/** An empty field is said to be empty, nothing more. */
const required = { ...issue('required'), abort: true };

/** A serial as the laser's maker prints it: letters, digits, ".", "_" and "-", beginning with a letter or digit. */
const serial = z
  .string()
  .trim()
  .min(1, required)
  .max(DEVICE_LIMITS.serial, issue('tooLong'))
  .regex(addDeviceBodyDeviceIdRegExp, issue('serialCharacters'));

export const deviceFormSchema = addDeviceBody.extend({
  deviceId: serial,
  opticalHeadId: serial,
  camera: z.string().trim().min(1, required).max(DEVICE_LIMITS.camera, issue('tooLong')),
  description: z.string().trim().max(DEVICE_LIMITS.description, issue('tooLong')),
});

export type DeviceFormValues = z.output<typeof deviceFormSchema>;
