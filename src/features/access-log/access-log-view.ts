import type { ListAccessLogParams } from '@generated/model/listAccessLogParams';
import { isIsoDate } from '@/lib/date-text';

/** What the access log shows, as the address bar holds it (a link from the patient list sets `patientId`). */
export interface AccessLogView {
  patientId?: string;
  actorId?: string;
  action?: string;
  /** Calendar days in the user's zone, YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
  page: number;
}

export const PER_PAGE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTION = /^[A-Za-z_]+(\.[A-Za-z_]+)*$/;

/** The view of an address; malformed values are left out rather than sent. */
export function readView(params: URLSearchParams): AccessLogView {
  const value = (name: string, pattern: RegExp | ((text: string) => boolean)) => {
    const text = params.get(name)?.trim();
    const fits = typeof pattern === 'function' ? pattern : (candidate: string) => pattern.test(candidate);
    return text && fits(text) && text.length <= 64 ? text : undefined;
  };
  const page = Number(params.get('page'));
  return {
    patientId: value('patientId', UUID),
    actorId: value('actorId', UUID),
    action: value('action', ACTION),
    // Real calendar days only (not 2026-02-30).
    from: value('from', isIsoDate),
    to: value('to', isIsoDate),
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

/** The address of a view (defaults left out). */
export function writeView(view: AccessLogView): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ['patientId', 'actorId', 'action', 'from', 'to'] as const) {
    const value = view[name];
    if (value) params.set(name, value);
  }
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** Midnight at the start of a calendar day in the user's zone, as an instant. */
function startOfDay(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + plusDays).toISOString();
}

/** A range whose last day lies before its first. */
export const isReversed = (view: AccessLogView) => Boolean(view.from && view.to && view.to < view.from);

/** The request of a view: days become the instants that bound them (`to` is the end of its day). */
export function requestOf(view: AccessLogView, page = view.page, perPage = PER_PAGE): ListAccessLogParams {
  return {
    page,
    perPage,
    ...(view.patientId && { patientId: view.patientId }),
    ...(view.actorId && { actorId: view.actorId }),
    ...(view.action && { action: view.action }),
    ...(view.from && { from: startOfDay(view.from) }),
    ...(view.to && { to: startOfDay(view.to, 1) }),
  };
}

/** The action names the screen knows, grouped as its filter offers them, with their catalogue keys. */
export const ACTION_GROUPS = {
  reads: {
    'patient.list': 'patientList',
    'patient.read': 'patientRead',
    'patient.treatments.list': 'patientTreatmentsList',
    'patient.treatments.compare': 'patientTreatmentsCompare',
    'treatment.read': 'treatmentRead',
    'treatment.image_read': 'treatmentImageRead',
    'plan.read': 'planRead',
    'plan.audit_read': 'planAuditRead',
    'plan.previous_treatment_read': 'planPreviousTreatmentRead',
    'plan.report_downloaded': 'planReportDownloaded',
    'plan.parameter_set_downloaded': 'planParameterSetDownloaded',
    'annotation.read': 'annotationRead',
    'notification.list': 'notificationList',
    'access_log.read': 'accessLogRead',
  },
  changes: {
    'patient.created': 'patientCreated',
    'patient.updated': 'patientUpdated',
    'patient.deletion_requested': 'patientDeletionRequested',
    'patient.archived': 'patientArchived',
    'patient.unarchived': 'patientUnarchived',
    'patient.restored': 'patientRestored',
    'patient.erased': 'patientErased',
    'treatment.uploaded': 'treatmentUploaded',
    'treatment.updated': 'treatmentUpdated',
    'treatment.deleted': 'treatmentDeleted',
    'treatment.issue_reported': 'treatmentIssueReported',
    'treatment.issue_report_withdrawn': 'treatmentIssueReportWithdrawn',
    'plan.exclusion_zones_saved': 'planExclusionZonesSaved',
    'plan.macula_grid_saved': 'planMaculaGridSaved',
    'plan.brightness_saved': 'planBrightnessSaved',
    'plan.final_adjustments_saved': 'planFinalAdjustmentsSaved',
    'plan.sign_off': 'planSignOff',
    'annotation.created': 'annotationCreated',
    'annotation.updated': 'annotationUpdated',
    'annotation.deleted': 'annotationDeleted',
    'annotation_label.created': 'annotationLabelCreated',
  },
  accounts: {
    signIn: 'signIn',
    logout: 'logout',
    changePassword: 'changePassword',
    updateProfile: 'updateProfile',
    'user.create': 'userCreate',
    'user.update': 'userUpdate',
    'user.it_admin_granted': 'userItAdminGranted',
    'clinic.settings_update': 'clinicSettingsUpdate',
    signInSecondFactor: 'signInSecondFactor',
    resetPassword: 'resetPassword',
    resetConfirmation: 'resetConfirmation',
    acceptInvite: 'acceptInvite',
    'email_change.requested': 'emailChangeRequested',
    'email_change.confirmed': 'emailChangeConfirmed',
    startTwoFactorEnrolment: 'startTwoFactorEnrolment',
    confirmTwoFactor: 'confirmTwoFactor',
    disableTwoFactor: 'disableTwoFactor',
    renewRecoveryCodes: 'renewRecoveryCodes',
    resetTwoFactor: 'resetTwoFactor',
    'user.activate': 'userActivate',
    'user.deactivate': 'userDeactivate',
    'user.archive': 'userArchive',
    'user.unarchive': 'userUnarchive',
    'user.restore': 'userRestore',
    'user.delete': 'userDelete',
    'user.send_invite': 'userSendInvite',
    'clinic.stop_password_renewal': 'clinicStopPasswordRenewal',
    'clinic.force_password_reset': 'clinicForcePasswordReset',
    'realtime.channel': 'realtimeChannel',
  },
  devices: {
    'device.added': 'deviceAdded',
    'device.enrolment_code_issued': 'deviceEnrolmentCodeIssued',
    'device.enrolled': 'deviceEnrolled',
    'device.credential_revoked': 'deviceCredentialRevoked',
    'device.online': 'deviceOnline',
    'device.offline': 'deviceOffline',
    'device.laser_profile_updated': 'deviceLaserProfileUpdated',
    'transfer.sent': 'transferSent',
    'transfer.cancelled': 'transferCancelled',
    'device.parameter_set_fetched': 'deviceParameterSetFetched',
    'device.parameter_set_received': 'deviceParameterSetReceived',
    'device.delivery_treated': 'deviceDeliveryTreated',
    'device.delivery_failed': 'deviceDeliveryFailed',
  },
} as const;

type Groups = typeof ACTION_GROUPS;
export type ActionKey = { [G in keyof Groups]: Groups[G][keyof Groups[G]] }[keyof Groups];

const KEYS: ReadonlyMap<string, ActionKey> = new Map(
  Object.values(ACTION_GROUPS).flatMap((group) => Object.entries(group) as [string, ActionKey][]),
);

/** The catalogue key of an action; undefined for one the screen does not know (shown as it is). */
export const actionKey = (action: string): ActionKey | undefined => KEYS.get(action);

/** How many entries the CSV takes at most (100 pages of 100). */
export const MAX_EXPORT = 10_000;

