/*
 * What the "Add device" form needs without its validation code (zod loads only when the form validates: see
 * src/components/deferred-resolver.ts). device-form-schema.test.ts holds the limits to the contract's.
 */
import type { DeviceInput } from '@generated/model/deviceInput';

/** The contract's limits (DeviceInput): maxLength of the fields and the description's counter. */
export const DEVICE_LIMITS = {
  serial: 64,
  camera: 120,
  description: 500,
} as const;

/** Why a field is refused; `devices:add.errors.<key>` says it in the UI language. */
export type DeviceFieldError = 'required' | 'tooLong' | 'serialCharacters';
export const DEVICE_FIELD_ERRORS: readonly DeviceFieldError[] = ['required', 'tooLong', 'serialCharacters'];

export type DeviceFormInput = { deviceId: string; opticalHeadId: string; camera: string; description: string };

export const EMPTY_DEVICE_FORM: DeviceFormInput = { deviceId: '', opticalHeadId: '', camera: '', description: '' };

/** The fields in the order shown: a server's field error focuses the first of them. */
export const DEVICE_FORM_FIELDS = ['deviceId', 'opticalHeadId', 'camera', 'description'] as const;

/** The request body: an empty description is left out. */
export const deviceInputOf = ({ description, ...device }: DeviceFormInput): DeviceInput => ({
  ...device,
  ...(description && { description }),
});
