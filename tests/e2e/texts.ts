// What the pages must say, read from the catalogues the SPA ships (English is the key source, so German
// is typed by it), instead of copies of the texts in the tests.
import deApi from '../../locales/de/api.json' with { type: 'json' };
import deAuth from '../../locales/de/auth.json' with { type: 'json' };
import deCommon from '../../locales/de/common.json' with { type: 'json' };
import deDates from '../../locales/de/dates.json' with { type: 'json' };
import deErrors from '../../locales/de/errors.json' with { type: 'json' };
import deLegal from '../../locales/de/legal.json' with { type: 'json' };
import deNpt from '../../locales/de/npt.json' with { type: 'json' };
import deExamUpload from '../../locales/de/examUpload.json' with { type: 'json' };
import dePatientCard from '../../locales/de/patientCard.json' with { type: 'json' };
import dePatientList from '../../locales/de/patientList.json' with { type: 'json' };
import dePatients from '../../locales/de/patients.json' with { type: 'json' };
import dePlanning from '../../locales/de/planning.json' with { type: 'json' };
import deDevices from '../../locales/de/devices.json' with { type: 'json' };
import deStaff from '../../locales/de/staff.json' with { type: 'json' };
import deBilling from '../../locales/de/billing.json' with { type: 'json' };
import deAdminPatients from '../../locales/de/adminPatients.json' with { type: 'json' };
import deSecuritySettings from '../../locales/de/securitySettings.json' with { type: 'json' };
import deTwoFactor from '../../locales/de/twoFactor.json' with { type: 'json' };
import deProfile from '../../locales/de/profile.json' with { type: 'json' };
import deNotifications from '../../locales/de/notifications.json' with { type: 'json' };
import deMarks from '../../locales/de/marks.json' with { type: 'json' };
import dePreviousTreatment from '../../locales/de/previousTreatment.json' with { type: 'json' };
import enApi from '../../locales/en/api.json' with { type: 'json' };
import enAuth from '../../locales/en/auth.json' with { type: 'json' };
import enCommon from '../../locales/en/common.json' with { type: 'json' };
import enDates from '../../locales/en/dates.json' with { type: 'json' };
import enErrors from '../../locales/en/errors.json' with { type: 'json' };
import enLegal from '../../locales/en/legal.json' with { type: 'json' };
import enNpt from '../../locales/en/npt.json' with { type: 'json' };
import enExamUpload from '../../locales/en/examUpload.json' with { type: 'json' };
import enPatientCard from '../../locales/en/patientCard.json' with { type: 'json' };
import enPatientList from '../../locales/en/patientList.json' with { type: 'json' };
import enPatients from '../../locales/en/patients.json' with { type: 'json' };
import enPlanning from '../../locales/en/planning.json' with { type: 'json' };
import enDevices from '../../locales/en/devices.json' with { type: 'json' };
import enStaff from '../../locales/en/staff.json' with { type: 'json' };
import enBilling from '../../locales/en/billing.json' with { type: 'json' };
import enAdminPatients from '../../locales/en/adminPatients.json' with { type: 'json' };
import enSecuritySettings from '../../locales/en/securitySettings.json' with { type: 'json' };
import enTwoFactor from '../../locales/en/twoFactor.json' with { type: 'json' };
import enProfile from '../../locales/en/profile.json' with { type: 'json' };
import enNotifications from '../../locales/en/notifications.json' with { type: 'json' };
import enMarks from '../../locales/en/marks.json' with { type: 'json' };
import enPreviousTreatment from '../../locales/en/previousTreatment.json' with { type: 'json' };
import type { Language } from '../../generated/model/language';

// api: the server's messages (the same catalogues, answered in the request's Language).
const en = {
  api: enApi,
  auth: enAuth,
  common: enCommon,
  dates: enDates,
  errors: enErrors,
  legal: enLegal,
  profile: enProfile,
  patients: enPatients,
  patientList: enPatientList,
  patientCard: enPatientCard,
  examUpload: enExamUpload,
  planning: enPlanning,
  devices: enDevices,
  staff: enStaff,
  billing: enBilling,
  adminPatients: enAdminPatients,
  securitySettings: enSecuritySettings,
  twoFactor: enTwoFactor,
  notifications: enNotifications,
  marks: enMarks,
  previousTreatment: enPreviousTreatment,
  // The exam file's faults as the server words them (src/domain/npt).
  npt: enNpt,
};
export type Texts = typeof en;
const de: Texts = {
  api: deApi,
  auth: deAuth,
  common: deCommon,
  dates: deDates,
  errors: deErrors,
  legal: deLegal,
  profile: deProfile,
  patients: dePatients,
  patientList: dePatientList,
  patientCard: dePatientCard,
  examUpload: deExamUpload,
  planning: dePlanning,
  devices: deDevices,
  staff: deStaff,
  billing: deBilling,
  adminPatients: deAdminPatients,
  securitySettings: deSecuritySettings,
  twoFactor: deTwoFactor,
  notifications: deNotifications,
  marks: deMarks,
  previousTreatment: dePreviousTreatment,
  npt: deNpt,
};

export const TEXTS: Record<Language, Texts> = { en, de };

/** i18next's `{{name}}` placeholders filled in, as the page shows the text. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => String(values[name] ?? placeholder));
}

/**
 * A calendar date (YYYY-MM-DD) as the UI language writes it and its date fields take it: 23.04.1951 in German,
 * 23/04/1951 in English (src/lib/date-text.ts).
 */
export function writtenDate(lang: Language, iso: string): string {
  return iso.split('-').reverse().join(lang === 'de' ? '.' : '/');
}

/** A text with a link inside ("I accept the <doc>EULA</doc>") as the page reads it. */
export function withoutTags(text: string): string {
  return text.replace(/<\/?\w+>/g, '');
}

/** document.title of a page whose h1 reads `page` (src/app/page-titles.ts). */
export function pageTitle(texts: Texts, page: string): string {
  return fill(texts.common.pageTitle, { page });
}
