// Row types of the database tables (storage shapes, not the contract's: handlers map rows to the
// generated contract models).
import type { ColumnType, Generated, GeneratedAlways, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { ExamDiagnostics } from '../../generated/model/examDiagnostics';
import type { Plan } from '../../generated/model/plan';
import type { MarkShape } from '../../src/domain/annotations/mark-shape';
import type { LaserProfile } from '../../src/domain/planning/clinical-limits';

/** The plan as stored: the contract's Plan without the step, which lives in its own columns. */
/** The plan as stored: step, step index and revision are columns of the session. */
export type StoredPlan = Omit<Plan, 'step' | 'stepIndex' | 'revision'>;

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export interface ClinicsTable {
  id: Generated<string>;
  name: string;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<string>;
  clinic_id: string;
  email: string;
  first_name: string;
  last_name: string;
  physician_name: string | null;
  role: string;
  status: string;
  invite_status: string;
  previous_status: string | null;
  password_hash: string | null;
  password_changed_at: Timestamp | null;
  must_change_password: Generated<boolean>;
  lang: Generated<string>;
  avatar_path: string | null;
  avatar_type: string | null;
  eula_accepted_at: Timestamp | null;
  eula_version: string | null;
  privacy_accepted_at: Timestamp | null;
  privacy_version: string | null;
  last_sign_in_at: Timestamp | null;
  /** The TOTP secret (base32) while two-factor sign-in is on; null otherwise. */
  totp_secret: string | null;
  /** A secret shown for enrolment and not yet confirmed with a code. */
  totp_pending_secret: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last TOTP time step accepted: a code of that step or an earlier one is not taken again. */
  totp_last_step: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A browser allowed to skip the second sign-in step until expires_at (the clinic's remember_device_days). */
export interface RememberedDevicesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  user_agent: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** Between a right password and the second step of a two-factor sign-in. */
export interface SignInChallengesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  remember: boolean;
  failures: Generated<number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Which session had a realtime socket's subscriptions signed: the socket closes when that session ends. */
export interface RealtimeBindingsTable {
  socket_id: string;
  session_id: string;
  created_at: CreatedAt;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  remember: boolean;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  ended_reason: string | null;
  /** Signed in while the clinic required a second factor the user had not set up: it may only set one up. */
  second_factor_setup: Generated<boolean>;
}

export interface UserTokensTable {
  id: Generated<string>;
  user_id: string;
  kind: 'invite' | 'reset' | 'email';
  token_hash: string;
  /** The new address an `email` link confirms; null for the other kinds. */
  email: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface ThrottlesTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  locked_until: Timestamp | null;
}

export interface SecuritySettingsTable {
  clinic_id: string;
  password_strength: Generated<string>;
  password_renewal_interval: number | null;
  password_renewal_period: Generated<string>;
  user_scope: Generated<string>;
  logout_time_interval: number | null;
  logout_time_period: Generated<string>;
  /** When the renewal rules (interval, unit, whom they apply to) last changed; passwords they made overdue get a grace period. */
  renewal_changed_at: Timestamp | null;
  /** Roles that must sign in with a second factor. */
  two_factor_roles: Generated<string[]>;
  /** Days a browser may skip the second step; 0 allows none. */
  remember_device_days: Generated<number>;
  updated_at: UpdatedAt;
}

export interface SecuritySettingsUsersTable {
  clinic_id: string;
  user_id: string;
}

/** A spot the laser fired, as its sync app reported it (contract DeliveredSpot). */
export interface DeliveredSpot {
  id: number;
  powerMw: number;
  /** Where the spot lay on the session's image when the delivery was reported (its plan may change later). */
  x?: number;
  y?: number;
}

export type TransferStatus = 'queued' | 'received' | 'treated' | 'failed' | 'cancelled';

/** A signed plan's parameter set on its way to a laser (migration 0017). */
export interface ParameterSetTransfersTable {
  id: Generated<string>;
  clinic_id: string;
  treatment_id: string;
  device_id: string;
  status: TransferStatus;
  file_name: string;
  size: number;
  sha256: string;
  queued_at: Timestamp;
  received_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** `treated`: the spots fired. */
  delivery: NullableJson<DeliveredSpot[]>;
  failure_reason: string | null;
  /** Insertion order within the server (migration 0018): the session's latest transfer is its highest. */
  sequence: Generated<string>;
}

export interface DevicesTable {
  id: Generated<string>;
  clinic_id: string;
  device_id: string;
  optical_head_id: string;
  camera: string;
  description: string | null;
  sync_app_status: string;
  last_seen_at: Timestamp | null;
  /** What the device can deliver (contract LaserProfile); null until an IT admin enters it. */
  laser_profile: NullableJson<LaserProfile>;
  created_at: CreatedAt;
  /** SHA-256 of the open one-time enrolment code (migration 0017). */
  enrolment_code_hash: string | null;
  enrolment_expires_at: Timestamp | null;
  /** SHA-256 of the sync app's credential in use. */
  credential_hash: string | null;
  enrolled_at: Timestamp | null;
  revoked_at: Timestamp | null;
  sync_app_version: string | null;
}

export interface NotificationsTable {
  id: Generated<string>;
  clinic_id: string;
  user_id: string;
  category: string;
  event: string;
  params: Json<Record<string, string | number>>;
  link: string | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface NotificationSettingsTable {
  user_id: string;
  system: Generated<boolean>;
  team_members: Generated<boolean>;
  patients: Generated<boolean>;
  news_and_updates: Generated<boolean>;
  notify_via_email: Generated<boolean>;
}

export interface PatientsTable {
  id: Generated<string>;
  clinic_id: string;
  name: string;
  second_name: string;
  /** YYYY-MM-DD (date columns are read as text, never as a Date in a time zone). */
  birthday: string;
  gender: string;
  description: string | null;
  status: Generated<string>;
  device_patient_id: string | null;
  deletion_reason: string | null;
  deletion_requested_by: string | null;
  deletion_requested_at: Timestamp | null;
  /** Kept by a trigger on treatments (migration 0004): never written by the application. */
  latest_session_at: ColumnType<Date | null, never, never>;
  sessions_count: ColumnType<number, never, never>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TreatmentsTable {
  id: Generated<string>;
  clinic_id: string;
  patient_id: string;
  number: number;
  date: Timestamp;
  eye: string;
  description: string | null;
  step: Generated<string>;
  step_index: Generated<number>;
  processing_state: Generated<string>;
  locked: Generated<boolean>;
  error_code: string | null;
  error_message: string | null;
  total_spots: Generated<number>;
  brightness: number | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  file_path: string | null;
  file_sha256: string | null;
  file_size: number | null;
  device_id: string | null;
  spot_size_um: number | null;
  spot_spacing: number | null;
  pulse_duration_ms: number | null;
  laser_mode: string | null;
  iol_status: string | null;
  laser_dose: number | null;
  /** Micropulse duty cycle, % (null in continuous mode or not yet set). */
  duty_cycle_percent: number | null;
  /** The device chosen to treat when it is not the exam's own (devices.id); null: the exam's device. */
  treatment_device_id: string | null;
  /** The device whose sync app uploaded the exam (migration 0017); null for a person's upload. */
  uploaded_by_device_id: Generated<string | null>;
  /** The exam file's diagnostic data, unknown fields included; null for sessions uploaded before issue 17. */
  diagnostics: NullableJson<ExamDiagnostics>;
  error_params: NullableJson<Record<string, string | number>>;
  /** The plan (contract `Plan` without step): null until processing proposed the exclusion zones. */
  plan: NullableJson<StoredPlan>;
  /** What the detector found, with its confidence (kept for review; the plan holds what is used). */
  detection: NullableJson<Record<string, unknown>>;
  /** Saves of the plan so far (contract PlanRevision). */
  plan_revision: Generated<number>;
  /** "Modified": the physician who changed a plan someone else prepared, as named then, and when. */
  modified_by: string | null;
  modified_by_name: string | null;
  modified_at: Timestamp | null;
  /** The packed parameter set's file key (name, size and SHA-256 are in the plan's parameterSet). */
  parameter_set_path: string | null;
}

export interface PlanChangesTable {
  id: Generated<string>;
  treatment_id: string;
  at: CreatedAt;
  user_id: string | null;
  user_name: string | null;
  action: string;
  step: string;
  revision: number;
  details: Json<Record<string, unknown>>;
  /** The order entries were written in (migration 0025); the database numbers them. */
  seq: GeneratedAlways<string>;
}

export interface TreatmentIssueReportsTable {
  id: Generated<string>;
  clinic_id: string;
  treatment_id: string;
  reason: string;
  reported_by: string | null;
  reported_by_name: string;
  reported_at: CreatedAt;
  /** Set when the report was withdrawn (migration 0023): the session is then unlocked. */
  withdrawn_at: Date | null;
  withdrawn_by: string | null;
  withdrawn_by_name: string | null;
}

/** How an earlier session's image lies on a later one's (migration 0010), found by a `treatment.register` job. */
export interface TreatmentRegistrationsTable {
  treatment_id: string;
  earlier_treatment_id: string;
  clinic_id: string;
  state: 'pending' | 'registered' | 'failed';
  method: 'landmarks' | 'vessels' | null;
  transform: NullableJson<{ a: number; b: number; tx: number; ty: number }>;
  uncertainty_um: number | null;
  vessel_agreement: number | null;
  error_code: string | null;
  /** The landmarks of both plans it was found from (migration 0011); null before. */
  landmarks: NullableJson<RegistrationLandmarks>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Fovea and optic disc centre of both sessions' plans, in their display-image pixels. */
export interface RegistrationLandmarks {
  earlier: { disc: { x: number; y: number }; fovea: { x: number; y: number } };
  today: { disc: { x: number; y: number }; fovea: { x: number; y: number } };
}

export interface TreatmentImagesTable {
  id: Generated<string>;
  clinic_id: string;
  treatment_id: string;
  role: string;
  entry: string;
  width: number;
  height: number;
  original_width: number;
  original_height: number;
  display_path: string;
  thumbnail_path: string;
  created_at: CreatedAt;
}

/** A label marks can carry (migration 0009): a default (key set, names from the locale files) or the clinic's own. */
export interface AnnotationLabelsTable {
  id: Generated<string>;
  clinic_id: string;
  key: string | null;
  name_en: string | null;
  name_de: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: CreatedAt;
  seq: Generated<string>;
}

/** A mark on a fundus image of a session, its shape in pixels of the display image (migration 0009). */
export interface AnnotationsTable {
  id: Generated<string>;
  clinic_id: string;
  treatment_id: string;
  image_id: string;
  label_id: string | null;
  shape: Json<MarkShape>;
  note: string | null;
  version: Generated<number>;
  created_by: string | null;
  created_by_name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  seq: Generated<string>;
}

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  clinic_id: string | null;
  subject_id: string;
  state: Generated<string>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  clinic_id: string | null;
  actor_id: string | null;
  actor_role: string | null;
  action: string;
  outcome: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  detail: Json<Record<string, unknown>>;
  at: CreatedAt;
  /** The patients the entry read or changed (ids only; kept after a patient's erasure). */
  patient_ids: ColumnType<string[], string[] | undefined, never>;
  /** Position in the hash chain, and the chain's hashes: set by the insert trigger (migration 0015), never by code. */
  seq: ColumnType<string, never, never>;
  prev_hash: ColumnType<string, never, never>;
  hash: ColumnType<string, never, never>;
}

/** Patients of a clinic per status, kept by a trigger on patients (migration 0005): the list's total. */
export interface PatientCountsTable {
  clinic_id: string;
  status: string;
  patients: number;
}

/** Raised at the commit of changes to what a cached answer was read from (migration 0005, db/freshness.ts). */
export interface CacheVersionsTable {
  key: string;
  version: ColumnType<string, string | number, string | number>;
}

export interface Tables {
  clinics: ClinicsTable;
  users: UsersTable;
  recovery_codes: RecoveryCodesTable;
  remembered_devices: RememberedDevicesTable;
  sign_in_challenges: SignInChallengesTable;
  auth_sessions: AuthSessionsTable;
  realtime_bindings: RealtimeBindingsTable;
  user_tokens: UserTokensTable;
  throttles: ThrottlesTable;
  security_settings: SecuritySettingsTable;
  security_settings_users: SecuritySettingsUsersTable;
  devices: DevicesTable;
  parameter_set_transfers: ParameterSetTransfersTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  patients: PatientsTable;
  treatments: TreatmentsTable;
  plan_changes: PlanChangesTable;
  treatment_images: TreatmentImagesTable;
  treatment_issue_reports: TreatmentIssueReportsTable;
  treatment_registrations: TreatmentRegistrationsTable;
  annotation_labels: AnnotationLabelsTable;
  annotations: AnnotationsTable;
  jobs: JobsTable;
  audit_log: AuditLogTable;
  patient_counts: PatientCountsTable;
  cache_versions: CacheVersionsTable;
}

export type Database = Kysely<Tables>;
/** A transaction of the database. */
export type Tx = Transaction<Tables>;
/** What a repository function runs on: the database, or a transaction a service opened. */
export type Queryable = Database | Tx;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PatientRow = Selectable<PatientsTable>;
export type TreatmentRow = Selectable<TreatmentsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type TransferRow = Selectable<ParameterSetTransfersTable>;
export type SecuritySettingsRow = Selectable<SecuritySettingsTable>;
export type TreatmentImageRow = Selectable<TreatmentImagesTable>;
export type JobRow = Selectable<JobsTable>;
