// npm run npt:sample -- --out FILE [options]: writes a synthetic NPT exam (or wraps a real fundus photo) for
// demos and manual tests. Exit codes: 0 written, 2 bad arguments or unusable image, 1 anything else.
import { access, constants, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildSampleExam, SampleImageError, type SampleExamOptions } from '../server/seed/sample-exam';

const USAGE = `Usage: npm run npt:sample -- --out FILE [options]

Writes a synthetic NPT exam file: a realistic fundus image with known optic disc and fovea, and a
plausible patient. Everything not given is derived from the seed.

Options:
  --out FILE            where to write the .npt file (required)
  --name NAME           patient's first name
  --second-name NAME    patient's family name
  --birthday DATE       YYYY-MM-DD
  --gender G            male | female | other
  --eye E               OD (right) | OS (left)
  --image PHOTO         wrap this JPEG or PNG fundus photo instead of painting one (no scale, no
                        truth); needs --eye
  --seed N              0 … 4294967295; the same seed gives the same file
  -h, --help            show this help
`;

const OPTIONS = {
  out: { type: 'string' },
  name: { type: 'string' },
  'second-name': { type: 'string' },
  birthday: { type: 'string' },
  gender: { type: 'string' },
  eye: { type: 'string' },
  image: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const GENDERS = ['male', 'female', 'other'] as const;
const EYES = ['OD', 'OS'] as const;
const MAX_NAME_LENGTH = 100;

class UsageError extends Error {}

function personName(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what a name must not hold
  if (value.trim() === '' || [...value].length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f-\u009f]/.test(value)) {
    throw new UsageError(`${flag} must be 1 to ${MAX_NAME_LENGTH} characters on one line, got "${value}"`);
  }
  return value;
}

function birthday(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  const real = date !== null && date.toISOString().slice(0, 10) === value;
  if (!real || value < '1900-01-01' || date.getTime() > Date.now()) {
    throw new UsageError(`--birthday must be a real date YYYY-MM-DD between 1900-01-01 and today, got "${value}"`);
  }
  return value;
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

function seed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) {
    throw new UsageError(`--seed must be a whole number from 0 to ${2 ** 32 - 1}, got "${value}"`);
  }
  return Number(value);
}

async function readableImage(path: string | undefined): Promise<string | undefined> {
  if (path === undefined) return undefined;
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new UsageError(`--image ${path} cannot be read`);
  }
  return path;
}

async function parse(argv: string[]): Promise<{ help: true } | { help: false; out: string; options: SampleExamOptions }> {
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  if (values.out === undefined || values.out.trim() === '') throw new UsageError('--out FILE is required');
  // A photo's eye cannot be told from the seed; a wrong one would mislead every later step.
  if (values.image !== undefined && values.eye === undefined) {
    throw new UsageError('--image needs --eye OD|OS: the eye of the photo is not known otherwise');
  }
  return {
    help: false,
    out: values.out,
    options: {
      name: personName(values.name, '--name'),
      secondName: personName(values['second-name'], '--second-name'),
      birthday: birthday(values.birthday),
      gender: oneOf(values.gender, '--gender', GENDERS),
      eye: oneOf(values.eye, '--eye', EYES),
      seed: seed(values.seed),
      image: await readableImage(values.image),
    },
  };
}

const point = (p: { x: number; y: number }) => `(${p.x.toFixed(1)}, ${p.y.toFixed(1)})`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = await parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`npt:sample: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }

  let exam;
  try {
    exam = await buildSampleExam(parsed.options);
  } catch (error) {
    if (!(error instanceof SampleImageError)) throw error;
    process.stderr.write(`npt:sample: ${error.message}\n`);
    return 2;
  }
  await writeFile(parsed.out, exam.bytes);

  const { patient, exam: info } = exam.manifest;
  const landmarks = exam.truth
    ? `disc ${point(exam.truth.opticDisc.center)} r ${exam.truth.opticDisc.radiusPx.toFixed(1)} px, ` +
      `fovea ${point(exam.truth.fovea)}, ${info.umPerPixel?.toFixed(2)} µm/px`
    : 'wrapped photo: disc and fovea unknown';
  process.stdout.write(
    `${parsed.out}  ${(exam.bytes.length / 1024).toFixed(1)} KiB  ` +
      `${patient.secondName}, ${patient.name} (${patient.gender}, ${patient.birthday}, ${patient.deviceSideId})  ` +
      `${info.eye}  ${landmarks}  seed ${exam.seed}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`npt:sample: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
