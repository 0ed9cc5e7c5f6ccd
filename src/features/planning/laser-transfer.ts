/**
 * The signed plan's way to the laser (issue 29) as step 5 offers it to a physician: when it can be sent or
 * withdrawn, which of the clinic's lasers can take it and why not the others. The server decides
 * (sendParameterSetToDevice answers 409 transfer.device_not_enrolled, transfer.device_cannot_deliver,
 * transfer.already_received); this only spares the physician a choice it would refuse.
 */
import type { SessionTransfer } from '@generated/model/sessionTransfer';
import type { Timestamp } from '@generated/model/timestamp';
import type { TreatmentDevice } from '@generated/model/treatmentDevice';

type Transfer = SessionTransfer | null | undefined;

/** Why a laser is not offered: no sync app holds a credential, another wavelength, or the plan waits there already. */
export type SendRefusal = 'notEnrolled' | 'otherWavelength' | 'waiting';

/** It may be sent (again) until a laser has received it: never sent, waiting for its laser, failed or withdrawn. */
export const canSend = (transfer: Transfer): boolean => transfer?.status !== 'received' && transfer?.status !== 'treated';

/** It may be withdrawn only while its laser has not fetched it. */
export const canCancel = (transfer: Transfer): boolean => transfer?.status === 'queued';

/** When the transfer reached the state it is in: queued, received, or finished (treated, failed, withdrawn). */
export const transferTime = (transfer: SessionTransfer): Timestamp => transfer.finishedAt ?? transfer.receivedAt ?? transfer.queuedAt;

/**
 * Why `device` cannot be sent the plan, or null. `wavelengthNm`: the wavelength the parameter set was packed for
 * (the treating laser's at sign-off); null when not known, and then the server alone judges.
 */
export function sendRefusal(device: TreatmentDevice, transfer: Transfer, wavelengthNm: number | null): SendRefusal | null {
  if (!device.enrolled) return 'notEnrolled';
  if (wavelengthNm !== null && device.laserProfile?.wavelengthNm !== wavelengthNm) return 'otherWavelength';
  if (transfer?.status === 'queued' && transfer.device.id === device.id) return 'waiting';
  return null;
}

/** The laser offered first: the one it last went to (sent again after a failure), else the first that can take it; '' for none. */
export function firstChoice(devices: readonly TreatmentDevice[], transfer: Transfer, wavelengthNm: number | null): string {
  const open = devices.filter((device) => sendRefusal(device, transfer, wavelengthNm) === null);
  return (open.find((device) => device.id === transfer?.device.id) ?? open[0])?.id ?? '';
}
