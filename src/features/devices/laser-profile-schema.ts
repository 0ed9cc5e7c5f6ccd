/*
 * The laser profile form's validation (zod, loaded with the form's first check: src/components/deferred-resolver.ts).
 * Each figure is read in the UI language (src/lib/locale-number.ts) and kept within PROFILE_BOUNDS; a range's
 * "from" may not exceed its "to"; at least one mode is on. What it gives is checked against the contract's body
 * (generated from the operation) and by the domain's laserProfileProblems, the check the server makes, so the
 * form sends nothing the server would refuse for a reason the form did not show.
 * Messages are LaserProfileMessage keys; the field shows them in the UI language with its own bounds.
 */
import { z } from 'zod';
import { updateDeviceLaserProfileBody } from '@generated/zod/clinic/clinic.zod';
import { laserProfileProblems, type LaserProfile } from '@/domain/planning/clinical-limits';
import { parseNumberText, type NumberTextProblem } from '@/lib/locale-number';
import { QUANTITIES, type LaserProfileFormInput, type QuantityName } from './laser-profile-form';

export type LaserProfileMessage =
  | NumberTextProblem
  /** Outside the figure's bounds (QUANTITIES). */
  | 'out_of_bounds'
  /** A range's "from" above its "to". */
  | 'reversed'
  /** No mode switched on. */
  | 'no_mode'
  /** Refused by the contract's schema or the domain's check, for a reason the checks above do not name. */
  | 'invalid';

export const LASER_PROFILE_MESSAGES: readonly LaserProfileMessage[] = [
  'empty',
  'not_a_number',
  'wrong_separator',
  'too_many_decimals',
  'out_of_bounds',
  'reversed',
  'no_mode',
  'invalid',
];

const issue = (message: LaserProfileMessage) => ({ code: 'custom' as const, message });

/** The figure typed, or the issue that refuses it. */
function readFigure(typed: string, language: string, name: QuantityName): number | LaserProfileMessage {
  const { bounds, digits } = QUANTITIES[name];
  const read = parseNumberText(typed, language, digits);
  if (!read.ok) return read.problem;
  return read.value < bounds.min || read.value > bounds.max ? 'out_of_bounds' : read.value;
}

const figure = (language: string, name: QuantityName) =>
  z.string().transform((typed, context) => {
    const read = readFigure(typed, language, name);
    if (typeof read === 'number') return read;
    context.addIssue(issue(read));
    return z.NEVER;
  });

/** An optional figure: nothing typed is nothing sent. */
const optionalFigure = (language: string, name: QuantityName) =>
  z.string().transform((typed, context) => {
    if (typed.trim() === '') return undefined;
    const read = readFigure(typed, language, name);
    if (typeof read === 'number') return read;
    context.addIssue(issue(read));
    return z.NEVER;
  });

const range = (language: string, name: QuantityName) =>
  z.object({ min: figure(language, name), max: figure(language, name) }).refine((read) => read.min <= read.max, { message: 'reversed' });

/** A mode switched off is not read (what was typed in it may be anything) and is left out of the profile. */
const OFF = z.object({ enabled: z.literal(false) }).transform(() => undefined);

/** A mode switched on, as the profile holds it: its figures, not the switch. */
function withoutSwitch<Mode extends { enabled: true }>(mode: Mode): Omit<Mode, 'enabled'> {
  const read: Partial<Mode> = { ...mode };
  delete read.enabled;
  return read as Omit<Mode, 'enabled'>;
}

/** The form's texts (LaserProfileFormInput) as the body's `laserProfile`, read in `language`. */
export function laserProfileSchema(language: string) {
  return z
    .object({
      wavelengthNm: figure(language, 'wavelengthNm'),
      spotSizeUm: range(language, 'spotSizeUm'),
      modes: z
        .object({
          continuous: z.discriminatedUnion('enabled', [
            OFF,
            z
              .object({
                enabled: z.literal(true),
                powerMw: range(language, 'powerMw'),
                pulseMs: range(language, 'pulseMs'),
                minSpacing: optionalFigure(language, 'minSpacing'),
              })
              .transform(withoutSwitch),
          ]),
          micropulse: z.discriminatedUnion('enabled', [
            OFF,
            z
              .object({
                enabled: z.literal(true),
                powerMw: range(language, 'powerMw'),
                pulseMs: range(language, 'pulseMs'),
                dutyCyclePercent: range(language, 'dutyCyclePercent'),
              })
              .transform(withoutSwitch),
          ]),
        })
        .refine((modes) => modes.continuous || modes.micropulse, { message: 'no_mode' })
        .transform(({ continuous, micropulse }) => {
          const { minSpacing, ...offered } = continuous ?? {};
          return {
            ...(continuous && { continuous: { ...offered, ...(minSpacing !== undefined && { minSpacing }) } }),
            ...(micropulse && { micropulse }),
          } as LaserProfile['modes'];
        }),
    })
    .pipe(updateDeviceLaserProfileBody.shape.laserProfile)
    .superRefine((profile, context) => {
      for (const path of laserProfileProblems(profile)) context.addIssue({ ...issue('invalid'), path: path.split('.') });
    });
}

/**
 * How the schema is run (the resolver's and the tests' parse options): an issue of the contract's schema carries
 * zod's English text, so it is reported as 'invalid'; the messages above are kept.
 */
export const LASER_PROFILE_PARSE_OPTIONS = { error: () => 'invalid' satisfies LaserProfileMessage };

/**
 * The schema as the form's resolver takes it: the form always holds every mode's texts (LaserProfileFormInput),
 * of which the schema reads those of the modes switched on.
 */
export const laserProfileFormSchema = (language: string) => laserProfileSchema(language) as unknown as z.ZodType<LaserProfile, LaserProfileFormInput>;
