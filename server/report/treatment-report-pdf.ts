// The treatment report as an A4 PDF (docs/architecture.md, "The treatment report"): the patient, the session,
// the fundus image with the plan drawn over it as vector graphics, the laser settings, the power per spot, and
// the sign-off with the parameter set's SHA-256, in English or German.
//
// The same input gives the same bytes: the document's dates are the sign-off's, its /ID is a digest of its own
// content, the fonts are embedded from fixed files as subsets whose names pdfkit derives from their order, and
// nothing here reads the clock or a random source.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { Patient } from '../../generated/model/patient';
import type { PixelPoint } from '../../generated/model/pixelPoint';
import type { Treatment } from '../../generated/model/treatment';
import type { MarkMeasurement } from '../../src/domain/annotations/measure';
import type { MarkShape } from '../../src/domain/annotations/mark-shape';
import { median } from '../../src/domain/planning/brightness';
import { POWER_COLOURS, powerColour, powerLegend, spotColourClass } from '../../src/domain/planning/power-colours';
import { PLAN_STYLE, PT_PER_PX, scaleBarLength, spotFill, type Line, type Paint } from '../../src/domain/planning/plan-style';
import en from '../../locales/en/report.json';
import de from '../../locales/de/report.json';
import type { Lang } from '../i18n';

/**
 * A label or measurement on the display image (server/services/annotations.ts, listMarksForReport): its shape
 * in the image's pixels, the label in the report's language (null for a ruler without one), the note, and its
 * figures at the plan's scale.
 */
export interface ReportMark {
  shape: MarkShape;
  label: string | null;
  note: string | null;
  measurement: MarkMeasurement | null;
}

export interface ReportInput {
  lang: Lang;
  /** The reader's time zone (canonical IANA name, see `canonicalTimeZone`): dates and times are stated in it. */
  timeZone: string;
  clinicName: string;
  patient: Pick<Patient, 'name' | 'secondName' | 'birthday' | 'gender' | 'deviceId'>;
  /** A signed-off session: `plan.signOff` is set. */
  treatment: Treatment;
  /** The display image the plan's pixels refer to (JPEG), or null when the store no longer has it. */
  image: { jpeg: Buffer; width: number; height: number } | null;
  marks: readonly ReportMark[];
  /** What the laser reported delivered (issue 29), or null when no treatment was reported. */
  delivery: ReportDelivery | null;
}

/** The treatment the laser reported: which device, when, and each spot fired with its power. */
export interface ReportDelivery {
  device: { deviceId: string; description: string | null };
  at: string;
  spots: readonly { id: number; powerMw: number }[];
}

// --- Texts ---------------------------------------------------------------------------------------------------

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type ReportKey = Leaves<typeof en>;
type Tree = { [key: string]: string | Tree };

const CATALOGUES: Record<Lang, Tree> = { en, de };
const LOCALES: Record<Lang, string> = { en: 'en-GB', de: 'de-DE' };

function textOf(lang: Lang, key: ReportKey, params: Record<string, string | number> = {}): string {
  let node: string | Tree = CATALOGUES[lang];
  for (const part of key.split('.')) node = typeof node === 'string' ? node : node[part];
  const template = typeof node === 'string' ? node : key;
  return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

interface Formats {
  t: (key: ReportKey, params?: Record<string, string | number>) => string;
  number: (value: number, digits?: number) => string;
  /** A calendar date (YYYY-MM-DD), or a moment's date in the reader's time zone, as the SPA shows dates. */
  date: (value: string) => string;
  /** A moment in the reader's time zone, the zone's abbreviation beside it ("18.11.2026, 15:05 MEZ"). */
  dateTime: (value: string) => string;
  mw: (value: number) => string;
}

function formatsOf(lang: Lang, timeZone: string): Formats {
  const locale = LOCALES[lang];
  const dayOptions = { day: '2-digit', month: '2-digit', year: 'numeric' } as const;
  // A birthday is a calendar date: the same day wherever it is read.
  const calendar = new Intl.DateTimeFormat(locale, { ...dayOptions, timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(locale, { ...dayOptions, timeZone });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short' });
  const number = (value: number, digits = 0) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  return {
    t: (key, params) => textOf(lang, key, params),
    number,
    date: (value) => (value.length === 10 ? calendar.format(new Date(`${value}T00:00:00Z`)) : day.format(new Date(value))),
    dateTime: (value) => `${day.format(new Date(value))}, ${time.format(new Date(value))}`,
    mw: (value) => `${number(value, 1)}\u00a0mW`,
  };
}

/** An IANA time zone name as Intl spells it ('europe/berlin' → 'Europe/Berlin'), or null when unknown. */
export function canonicalTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

// --- Fonts ---------------------------------------------------------------------------------------------------

const requireFont = createRequire(import.meta.url);

/**
 * Noto Sans (Latin, Greek, Cyrillic) and Noto Sans Mono, OFL, from their npm packages. pdfkit knows a font by
 * the name it was opened with: the document's default font is the regular one under the same name, so it is
 * parsed and embedded once.
 */
const FONT = {
  regular: requireFont.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: requireFont.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  mono: requireFont.resolve('@expo-google-fonts/noto-sans-mono/400Regular/NotoSansMono_400Regular.ttf'),
};

// --- Page and style ------------------------------------------------------------------------------------------

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const CONTENT = PAGE.width - 2 * MARGIN;
const BOTTOM = PAGE.height - 52;
const GUTTER = 18;
const COLUMN = (CONTENT - GUTTER) / 2;

const INK = '#1c2127';
const MUTED = '#5f6b7c';
const RULE = '#c5cbd3';
const DANGER = '#ac2f33';
const DANGER_FILL = '#fcecec';
const SIZE = { title: 18, heading: 10.5, body: 9, label: 8.5, small: 7.5 };

type Doc = PDFKit.PDFDocument;
type Row = [label: string, value: string, mono?: boolean];

/** Renders the report; resolves to the PDF's bytes. */
export function renderTreatmentReport(input: ReportInput): Promise<Buffer> {
  const { treatment } = input;
  const signOff = treatment.plan.signOff;
  if (!signOff) throw new Error('renderTreatmentReport needs a signed-off plan');
  const f = formatsOf(input.lang, input.timeZone);
  const signedAt = new Date(signOff.at);
  const patientName = `${input.patient.secondName}, ${input.patient.name}`;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    font: FONT.regular,
    lang: input.lang,
    displayTitle: true,
    info: {
      Title: `${f.t('title')} — ${patientName}`,
      Author: signOff.by.name,
      Subject: `${f.t('session.heading')} ${treatment.number}, ${treatment.eye}, ${f.date(treatment.date)}`,
      Creator: 'Macula Planner',
      Producer: 'Macula Planner (pdfkit)',
      CreationDate: signedAt,
      ModDate: signedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(withContentId(Buffer.concat(chunks))));
    doc.on('error', reject);
  });

  let y = header(doc, input, f);
  if (treatment.locked) y = lockedBanner(doc, input, f, y);
  y = twoColumns(y, (x) => section(doc, x, y, COLUMN, f.t('patient.heading'), patientRows(input, f)), (x) =>
    section(doc, x, y, COLUMN, f.t('session.heading'), sessionRows(treatment, f)),
  );
  y = imageSection(doc, input, f, y + 12);
  y = twoColumns(y + 12, (x) => section(doc, x, y + 12, COLUMN, f.t('laser.heading'), laserRows(treatment, f)), (x) =>
    section(doc, x, y + 12, COLUMN, f.t('power.heading'), powerRows(treatment, f)),
  );
  y = signOffSection(doc, input, f, y + 12);
  if (input.delivery) y = deliverySection(doc, input.treatment, input.delivery, f, y + 12);
  if (!covers(doc, [patientName, signOff.by.name, ...input.marks.flatMap((mark) => [mark.label ?? '', mark.note ?? ''])])) {
    doc.font(FONT.regular).fontSize(SIZE.small).fillColor(MUTED).text(f.t('missingGlyphs'), MARGIN, y + 6, { width: CONTENT });
    y = doc.y;
  }
  if (input.marks.length) marksTable(doc, input.marks, f, y + 12);
  footers(doc, input, f);
  doc.end();
  return finished;
}

// --- Blocks --------------------------------------------------------------------------------------------------

function header(doc: Doc, input: ReportInput, f: Formats): number {
  doc.font(FONT.bold).fontSize(SIZE.title).fillColor(INK).text(f.t('title'), MARGIN, MARGIN, { width: CONTENT * 0.6, lineBreak: false });
  doc.font(FONT.regular).fontSize(SIZE.label).fillColor(MUTED).text(f.t('subtitle'), MARGIN, MARGIN + 25, { width: CONTENT * 0.6 });
  const right = { width: CONTENT * 0.4, align: 'right' as const };
  doc.font(FONT.bold).fontSize(SIZE.body).fillColor(INK).text(input.clinicName, MARGIN + CONTENT * 0.6, MARGIN + 4, right);
  doc.font(FONT.regular).fontSize(SIZE.label).fillColor(MUTED).text('Macula Planner', MARGIN + CONTENT * 0.6, doc.y + 1, right);
  const bottom = Math.max(MARGIN + 40, doc.y + 4);
  doc.moveTo(MARGIN, bottom).lineTo(MARGIN + CONTENT, bottom).lineWidth(0.8).strokeColor(INK).stroke();
  return bottom + 10;
}

function lockedBanner(doc: Doc, input: ReportInput, f: Formats, y: number): number {
  const report = input.treatment.issueReport;
  const lines = [
    report ? f.t('locked.reported', { at: f.dateTime(report.reportedAt), name: report.reportedBy.name }) : f.t('locked.reportedUnknown'),
    ...(report?.reason ? [f.t('locked.reason', { reason: report.reason })] : []),
    f.t('locked.withheld'),
  ];
  const inner = CONTENT - 24;
  doc.font(FONT.regular).fontSize(SIZE.body);
  const bodyHeight = lines.reduce((sum, line) => sum + doc.heightOfString(line, { width: inner }) + 2, 0);
  const height = 10 + 15 + bodyHeight + 6;
  doc.rect(MARGIN, y, CONTENT, height).fillColor(DANGER_FILL).fill();
  doc.rect(MARGIN, y, 4, height).fillColor(DANGER).fill();
  doc.rect(MARGIN, y, CONTENT, height).lineWidth(0.8).strokeColor(DANGER).stroke();
  doc.font(FONT.bold).fontSize(SIZE.heading).fillColor(DANGER).text(f.t('locked.title'), MARGIN + 14, y + 8, { width: inner });
  let line = y + 25;
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(INK);
  for (const text of lines) {
    doc.text(text, MARGIN + 14, line, { width: inner });
    line = doc.y + 2;
  }
  return y + height + 12;
}

/** Two blocks side by side; the lower end of the taller one. */
function twoColumns(y: number, left: (x: number) => number, right: (x: number) => number): number {
  return Math.max(y, left(MARGIN), right(MARGIN + COLUMN + GUTTER));
}

function sectionHeading(doc: Doc, x: number, y: number, width: number, title: string): number {
  doc.font(FONT.bold).fontSize(SIZE.heading).fillColor(INK).text(title, x, y, { width, lineBreak: false });
  doc.moveTo(x, y + 15).lineTo(x + width, y + 15).lineWidth(0.5).strokeColor(RULE).stroke();
  return y + 20;
}

/** A heading and label–value rows; the y below the last row. */
function section(doc: Doc, x: number, y: number, width: number, title: string, rows: Row[]): number {
  let top = sectionHeading(doc, x, y, width, title);
  // The labels' column is as wide as the longest label (German ones run longer), up to 45 % of the block.
  doc.font(FONT.regular).fontSize(SIZE.label);
  const labelWidth = Math.min(width * 0.45, Math.max(...rows.map(([label]) => doc.widthOfString(label))) + 10);
  const valueWidth = width - labelWidth - 6;
  for (const [label, value, mono] of rows) {
    doc.font(FONT.regular).fontSize(SIZE.label);
    const labelHeight = doc.heightOfString(label, { width: labelWidth });
    doc.font(mono ? FONT.mono : FONT.regular).fontSize(mono ? SIZE.label : SIZE.body);
    const valueHeight = doc.heightOfString(value, { width: valueWidth });
    doc.font(FONT.regular).fontSize(SIZE.label).fillColor(MUTED).text(label, x, top + 0.5, { width: labelWidth });
    doc.font(mono ? FONT.mono : FONT.regular).fontSize(mono ? SIZE.label : SIZE.body).fillColor(INK).text(value, x + labelWidth + 6, top, { width: valueWidth });
    top += Math.max(labelHeight, valueHeight) + 3;
  }
  return top;
}

function patientRows(input: ReportInput, f: Formats): Row[] {
  const { patient } = input;
  return [
    [f.t('patient.name'), `${patient.secondName}, ${patient.name}`],
    [f.t('patient.birthday'), f.date(patient.birthday)],
    [f.t('patient.gender'), f.t(`patient.genders.${patient.gender}`)],
    [f.t('patient.deviceId'), patient.deviceId ?? f.t('patient.none')],
  ];
}

function sessionRows(treatment: Treatment, f: Formats): Row[] {
  return [
    [f.t('session.number'), String(treatment.number)],
    [f.t('session.date'), f.date(treatment.date)],
    [f.t('session.eye'), f.t(`session.eyes.${treatment.eye}`)],
    [f.t('session.device'), treatment.deviceId ?? f.t('patient.none')],
  ];
}

function enabledPowers(treatment: Treatment): number[] {
  return treatment.plan.spots.filter((spot) => spot.enabled && spot.powerMw != null).map((spot) => spot.powerMw!);
}

function laserRows(treatment: Treatment, f: Formats): Row[] {
  const rows: Row[] = [];
  const dash = '–';
  rows.push([f.t('laser.spotSize'), treatment.spotSizeUm == null ? dash : `${f.number(treatment.spotSizeUm)}\u00a0µm`]);
  rows.push([f.t('laser.spacing'), treatment.spotSpacing == null ? dash : f.t('laser.spacingValue', { value: f.number(treatment.spotSpacing, 2) })]);
  rows.push([f.t('laser.pulse'), treatment.pulseDurationMs == null ? dash : `${f.number(treatment.pulseDurationMs, 1)}\u00a0ms`]);
  rows.push([f.t('laser.mode'), treatment.laserMode ? f.t(`laser.modes.${treatment.laserMode}`) : dash]);
  if (treatment.laserMode === 'micropulse') rows.push([f.t('laser.dutyCycle'), treatment.dutyCyclePercent == null ? dash : `${f.number(treatment.dutyCyclePercent, 1)}\u00a0%`]);
  const device = treatment.plan.safety?.treatmentDevice;
  if (device) {
    rows.push([f.t('laser.device'), device.deviceId]);
    if (device.laserProfile) rows.push([f.t('laser.wavelength'), `${f.number(device.laserProfile.wavelengthNm)}\u00a0nm`]);
  }
  rows.push([f.t('laser.laserDose'), treatment.laserDose == null ? dash : f.mw(treatment.laserDose)]);
  const grid = treatment.plan.gridSettings;
  if (grid) {
    rows.push([f.t('laser.pattern'), f.t(`laser.patterns.${grid.pattern}`)]);
    rows.push([f.t('laser.ring'), f.t('laser.ringValue', { inner: f.number(grid.innerRadiusUm), outer: f.number(grid.outerRadiusUm) })]);
  }
  return rows;
}

function powerRows(treatment: Treatment, f: Formats): Row[] {
  const { spots } = treatment.plan;
  const enabled = spots.filter((spot) => spot.enabled).length;
  const powers = enabledPowers(treatment);
  const rows: Row[] = [
    [f.t('power.planned'), f.number(spots.length)],
    [f.t('power.enabled'), f.number(enabled)],
    [f.t('power.removed'), f.number(spots.length - enabled)],
  ];
  if (powers.length) {
    rows.push([f.t('power.min'), f.mw(Math.min(...powers))]);
    rows.push([f.t('power.median'), f.mw(median(powers))]);
    rows.push([f.t('power.max'), f.mw(Math.max(...powers))]);
  }
  const model = treatment.plan.brightness;
  if (model) {
    rows.push([f.t('laser.factors'), f.t('laser.factorsValue', { min: f.number(model.minFactor, 2), max: f.number(model.maxFactor, 2) })]);
    // Above the titrated power only by a physician's explicit choice, which the report names (issue 26).
    if (model.aboveTitration) {
      const { by, at } = model.aboveTitration;
      rows.push([f.t('laser.aboveTitration'), f.t('laser.aboveTitrationValue', { max: f.number(model.maxFactor, 2), name: by.name, at: f.dateTime(at) })]);
    } else if (model.maxFactor <= 1) rows.push([f.t('laser.titration'), f.t('laser.titrationValue')]);
    if (model.excludedSpots) rows.push([f.t('laser.excluded'), f.t('laser.excludedValue', { count: f.number(model.excludedSpots) })]);
  }
  return rows;
}

/** The image with the plan drawn over it, and beside it the legend and the spots per power band. */
function imageSection(doc: Doc, input: ReportInput, f: Formats, y: number): number {
  const top = sectionHeading(doc, MARGIN, y, CONTENT, f.t('image.heading'));
  const { plan } = input.treatment;
  const width = input.image?.width ?? plan.imagedField?.width ?? 4;
  const height = input.image?.height ?? plan.imagedField?.height ?? 3;
  const boxWidth = Math.min(340, (290 * width) / height);
  const boxHeight = (boxWidth * height) / width;
  const view = viewOf(input, width, height);
  const scale = boxWidth / view.width;
  const origin = { x: MARGIN - view.x * scale, y: top - view.y * scale };
  doc.save();
  doc.rect(MARGIN, top, boxWidth, boxHeight).clip();
  if (input.image) {
    doc.image(input.image.jpeg, origin.x, origin.y, { width: width * scale, height: height * scale });
  } else {
    doc.rect(MARGIN, top, boxWidth, boxHeight);
    fillWith(doc, PLAN_STYLE.backdrop.fill).fill();
    doc.font(FONT.regular).fontSize(SIZE.body);
    fillWith(doc, PLAN_STYLE.backdrop.text).text(f.t('image.missing'), MARGIN + 10, top + boxHeight / 2 - 6, { width: boxWidth - 20, align: 'center' });
  }
  doc.save();
  doc.translate(origin.x, origin.y).scale(scale);
  drawPlan(doc, input, scale);
  doc.restore();
  // Text goes on in page coordinates: pdfkit places text against the page, not against a scaled frame.
  const toPage = (point: PixelPoint): PixelPoint => ({ x: origin.x + point.x * scale, y: origin.y + point.y * scale });
  markTags(doc, input.marks, toPage);
  if (plan.scale) scaleBar(doc, f, plan.scale.umPerPixel / scale, plan.scale.source === 'estimated', { x: MARGIN, bottom: top + boxHeight, width: boxWidth });
  doc.restore();
  doc.rect(MARGIN, top, boxWidth, boxHeight).lineWidth(0.5).strokeColor(RULE).stroke();

  let below = top + boxHeight + 4;
  if (plan.scale) {
    const scaleText = f.t('image.scale', { value: f.number(plan.scale.umPerPixel, 2), source: f.t(`image.sources.${plan.scale.source}`) });
    doc.font(FONT.regular).fontSize(SIZE.small).fillColor(MUTED).text(scaleText, MARGIN, below, { width: boxWidth });
    below = doc.y;
  }
  const side = legend(doc, input, f, MARGIN + boxWidth + 16, top, CONTENT - boxWidth - 16);
  return Math.max(below, side);
}

/**
 * The part of the image the report shows: the treated ring, both zones, the disc and the marks with a margin,
 * in the image's proportions and never less than 45 % of its width, so that spots of 100 µm stay apart on
 * paper. The whole image is embedded; a PDF viewer's zoom shows the rest.
 */
function viewOf(input: ReportInput, width: number, height: number): { x: number; y: number; width: number; height: number } {
  const { plan, spotSizeUm } = input.treatment;
  const extents: { x: number; y: number; r: number }[] = [];
  const zones = plan.exclusionZones;
  if (zones) for (const zone of [zones.faz, zones.onh]) extents.push({ ...zone.center, r: Math.max(zone.radiusXPx, zone.radiusYPx) });
  if (plan.opticDisc) extents.push({ ...plan.opticDisc.center, r: plan.opticDisc.radiusPx });
  const fovea = zones?.faz.center ?? plan.fovea;
  const umPerPixel = plan.scale?.umPerPixel;
  if (fovea && umPerPixel && plan.gridSettings) extents.push({ ...fovea, r: plan.gridSettings.outerRadiusUm / umPerPixel });
  const spotRadius = umPerPixel && spotSizeUm ? spotSizeUm / 2 / umPerPixel : 0;
  for (const spot of plan.spots) extents.push({ x: spot.x, y: spot.y, r: spotRadius });
  for (const { shape } of input.marks) {
    const points = shape.kind === 'point' ? [shape.at] : shape.kind === 'line' ? [shape.start, shape.end] : shape.kind === 'polygon' ? shape.points : [shape.center];
    const r = shape.kind === 'circle' ? shape.radiusPx : 0;
    for (const point of points) extents.push({ ...point, r });
  }
  const whole = { x: 0, y: 0, width, height };
  if (!extents.length) return whole;
  const left = Math.min(...extents.map((e) => e.x - e.r));
  const right = Math.max(...extents.map((e) => e.x + e.r));
  const upper = Math.min(...extents.map((e) => e.y - e.r));
  const lower = Math.max(...extents.map((e) => e.y + e.r));
  const pad = 0.08 * Math.max(right - left, lower - upper);
  const aspect = width / height;
  let viewWidth = Math.max(right - left + 2 * pad, (lower - upper + 2 * pad) * aspect, 0.45 * width);
  viewWidth = Math.min(viewWidth, width);
  const viewHeight = viewWidth / aspect;
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  return {
    x: clamp((left + right) / 2 - viewWidth / 2, width - viewWidth),
    y: clamp((upper + lower) / 2 - viewHeight / 2, height - viewHeight),
    width: viewWidth,
    height: viewHeight,
  };
}

// --- The plan, as the planner draws it (src/domain/planning/plan-style.ts) --------------------------------------

const { ring: RING, fovea: FOVEA, disc: DISC, spots: SPOTS, marks: MARKS, scaleBar: SCALE_BAR } = PLAN_STYLE;

/** Sets a paint as pdfkit's fill or stroke colour; pdfkit takes the colour and its opacity apart. */
const fillWith = (doc: Doc, paint: Paint) => doc.fillColor(paint.colour, paint.alpha);
const strokeWith = (doc: Doc, paint: Paint) => doc.strokeColor(paint.colour, paint.alpha);

/** A line of the plan style, `u` being the drawing's units per CSS px; dashed when the style says so. */
function lineOf(doc: Doc, line: Line, u: number): Doc {
  strokeWith(doc, line.paint).lineWidth(line.widthPx * u);
  return line.dashPx ? doc.dash(line.dashPx[0] * u, { space: line.dashPx[1] * u }) : doc.undash();
}

/**
 * The plan in the image's pixels; `scale` is points per image pixel. Lengths of the plan style (CSS px) are
 * drawn at PT_PER_PX points each, whatever the image's size, as the planner draws them at any zoom.
 */
function drawPlan(doc: Doc, input: ReportInput, scale: number) {
  const { plan, spotSizeUm } = input.treatment;
  const u = PT_PER_PX / scale;
  const zones = plan.exclusionZones;
  if (zones) {
    for (const zone of [zones.faz, zones.onh]) {
      const look = PLAN_STYLE.zones[zone.kind];
      doc.save();
      doc.translate(zone.center.x, zone.center.y).rotate(zone.rotationDeg);
      doc.ellipse(0, 0, zone.radiusXPx, zone.radiusYPx);
      fillWith(doc, look.fill).fill();
      doc.ellipse(0, 0, zone.radiusXPx, zone.radiusYPx);
      strokeWith(doc, look.stroke).lineWidth(look.widthPx * u).stroke();
      doc.restore();
    }
  }
  const umPerPixel = plan.scale?.umPerPixel;
  const fovea = zones?.faz.center ?? plan.fovea;
  if (plan.gridSettings && fovea && umPerPixel) {
    doc.save();
    lineOf(doc, RING, u);
    for (const radiusUm of [plan.gridSettings.innerRadiusUm, plan.gridSettings.outerRadiusUm]) {
      if (radiusUm > 0) doc.circle(fovea.x, fovea.y, radiusUm / umPerPixel).stroke();
    }
    doc.restore();
  }
  const spotSize = spotSizeUm ?? plan.gridSettings?.spotSizeUm;
  const radius = spotSize && umPerPixel ? spotSize / 2 / umPerPixel : 2 * u;
  const model = plan.brightness;
  for (let colour = -1; colour < POWER_COLOURS.length; colour++) {
    const spots = plan.spots.filter((spot) => spot.enabled && spotColourClass(spot.powerFactor, model) === colour);
    if (!spots.length) continue;
    for (const spot of spots) doc.circle(spot.x, spot.y, radius);
    fillWith(doc, spotFill(colour));
    strokeWith(doc, SPOTS.outline.paint).lineWidth(SPOTS.outline.widthPx * u).fillAndStroke();
  }
  const removed = plan.spots.filter((spot) => !spot.enabled);
  if (removed.length) {
    const d = radius * SPOTS.removed.crossFraction;
    for (const spot of removed) {
      doc.circle(spot.x, spot.y, radius);
      doc.moveTo(spot.x - d, spot.y - d).lineTo(spot.x + d, spot.y + d).moveTo(spot.x + d, spot.y - d).lineTo(spot.x - d, spot.y + d);
    }
    lineOf(doc, SPOTS.removed, u).stroke();
  }
  if (plan.opticDisc) {
    const { center, radiusPx } = plan.opticDisc;
    doc.save();
    lineOf(doc, DISC, u);
    doc.circle(center.x, center.y, radiusPx).stroke();
    doc.restore();
  }
  if (fovea) foveaCross(doc, fovea, u);
  drawMarks(doc, input.marks, u);
}

function foveaCross(doc: Doc, at: PixelPoint, u: number) {
  const arm = FOVEA.armPx * u;
  doc.moveTo(at.x - arm, at.y).lineTo(at.x + arm, at.y).moveTo(at.x, at.y - arm).lineTo(at.x, at.y + arm);
  lineOf(doc, FOVEA, u).stroke();
}

/** The marks as the planner's marks overlay draws them: outlined, areas tinted, a point a ring with a dot. */
function drawMarks(doc: Doc, marks: readonly ReportMark[], u: number) {
  const { shape: look, point } = MARKS;
  const outline = () => strokeWith(doc, look.stroke).lineWidth(look.widthPx * u);
  const area = () => {
    fillWith(doc, look.fill);
    outline().fillAndStroke();
  };
  for (const { shape } of marks) {
    switch (shape.kind) {
      case 'point':
        doc.circle(shape.at.x, shape.at.y, point.radiusPx * u);
        area();
        doc.circle(shape.at.x, shape.at.y, point.dotPx * u);
        fillWith(doc, look.stroke).fill();
        break;
      case 'line':
        doc.moveTo(shape.start.x, shape.start.y).lineTo(shape.end.x, shape.end.y);
        outline().stroke();
        break;
      case 'circle':
        doc.circle(shape.center.x, shape.center.y, shape.radiusPx);
        area();
        break;
      case 'polygon':
        if (!shape.points.length) break;
        doc.polygon(...shape.points.map((p): [number, number] => [p.x, p.y]));
        area();
        break;
    }
  }
}

/** Where a mark's number goes: beside its point, the end of its line, the upper right of its circle, the top of its polygon. */
function anchorOf(shape: MarkShape): PixelPoint {
  switch (shape.kind) {
    case 'point':
      return shape.at;
    case 'line':
      return shape.end;
    case 'circle':
      return { x: shape.center.x + shape.radiusPx * Math.SQRT1_2, y: shape.center.y - shape.radiusPx * Math.SQRT1_2 };
    case 'polygon':
      return shape.points.reduce((best, p) => (p.y < best.y ? p : best), shape.points[0] ?? { x: 0, y: 0 });
  }
}

const TAG_SIZE = PLAN_STYLE.labels.markPx * PT_PER_PX;
const TAG_HEIGHT = TAG_SIZE * 1.25;

/** A mark's number on a tag of the marks' colour, its upper left at (x, y): on the image and in the table alike. */
function markTag(doc: Doc, number: number, x: number, y: number) {
  const tag = String(number);
  doc.font(FONT.bold).fontSize(TAG_SIZE);
  doc.rect(x, y, doc.widthOfString(tag) + 4, TAG_HEIGHT);
  fillWith(doc, MARKS.shape.stroke).fill();
  fillWith(doc, MARKS.text.tagText).text(tag, x + 2, y + TAG_SIZE * 0.05, { lineBreak: false });
}

/** Each mark's number on the image, just above and right of it; its label and measurement are in the table. */
function markTags(doc: Doc, marks: readonly ReportMark[], toPage: (point: PixelPoint) => PixelPoint) {
  marks.forEach((mark, index) => {
    const at = toPage(anchorOf(mark.shape));
    markTag(doc, index + 1, at.x + 2, at.y - 1 - TAG_HEIGHT);
  });
}

/**
 * The scale bar as the planner's viewer draws it, `SCALE_BAR.offsetPx` in from the lower left of the image box:
 * a bracket of a round length on a translucent dark box, its length written under it.
 */
function scaleBar(doc: Doc, f: Formats, umPerPt: number, estimated: boolean, box: { x: number; bottom: number; width: number }) {
  const p = PT_PER_PX;
  const bar = scaleBarLength(1 / (umPerPt * p), box.width / p);
  const length = bar.px * p;
  const lineWidth = SCALE_BAR.lineWidthPx * p;
  const label = `${estimated ? '≈' : ''}${f.number(bar.um)}\u00a0µm`;
  doc.font(FONT.regular).fontSize(PLAN_STYLE.labels.scaleBarPx * p);
  const textHeight = doc.currentLineHeight();
  const pad = { x: SCALE_BAR.paddingPx.x * p, y: SCALE_BAR.paddingPx.y * p };
  const width = Math.max(length, doc.widthOfString(label)) + 2 * pad.x;
  const height = 2 * pad.y + (SCALE_BAR.barHeightPx + SCALE_BAR.gapPx) * p + textHeight;
  const left = box.x + SCALE_BAR.offsetPx.x * p;
  const top = box.bottom - SCALE_BAR.offsetPx.y * p - height;
  doc.roundedRect(left, top, width, height, SCALE_BAR.radiusPx * p);
  fillWith(doc, SCALE_BAR.background).fill();
  const x0 = left + pad.x + lineWidth / 2;
  const x1 = left + pad.x + length - lineWidth / 2;
  const y0 = top + pad.y;
  const y1 = y0 + SCALE_BAR.barHeightPx * p - lineWidth / 2;
  doc.moveTo(x0, y0).lineTo(x0, y1).lineTo(x1, y1).lineTo(x1, y0);
  strokeWith(doc, SCALE_BAR.paint).lineWidth(lineWidth).undash().stroke();
  fillWith(doc, SCALE_BAR.paint).text(label, left + pad.x, y0 + (SCALE_BAR.barHeightPx + SCALE_BAR.gapPx) * p, { lineBreak: false });
}

const TILE = { width: 16, height: 11 };

/**
 * A legend entry's swatch: the element drawn as on the image, on a tile of the image's dark backdrop (the plan's
 * light colours would not stand out on white paper), in a frame of points centred on the tile.
 */
function swatch(doc: Doc, x: number, y: number, draw: (cx: number, cy: number) => void) {
  doc.save();
  doc.roundedRect(x, y - 1, TILE.width, TILE.height, 2);
  fillWith(doc, PLAN_STYLE.backdrop.fill).fill();
  draw(x + TILE.width / 2, y - 1 + TILE.height / 2);
  doc.restore();
}

function legend(doc: Doc, input: ReportInput, f: Formats, x: number, y: number, width: number): number {
  const { plan, laserDose } = input.treatment;
  const u = PT_PER_PX;
  const zone = (kind: 'FAZ' | 'ONH') => (cx: number, cy: number) => {
    const look = PLAN_STYLE.zones[kind];
    doc.ellipse(cx, cy, 5.5, 4);
    fillWith(doc, look.fill);
    strokeWith(doc, look.stroke).lineWidth(look.widthPx * u).fillAndStroke();
  };
  const dashedCircle = (line: Line) => (cx: number, cy: number) => {
    lineOf(doc, line, u);
    doc.circle(cx, cy, 4.5).stroke();
  };
  const entries: [string, (cx: number, cy: number) => void][] = [
    [f.t('image.legend.faz'), zone('FAZ')],
    [f.t('image.legend.onh'), zone('ONH')],
    [f.t('image.legend.ring'), dashedCircle(RING)],
    [f.t('image.legend.fovea'), (cx, cy) => foveaCross(doc, { x: cx, y: cy }, u)],
    [f.t('image.legend.disc'), dashedCircle(DISC)],
    [
      f.t('image.legend.removed'),
      (cx, cy) => {
        const d = 3.2 * SPOTS.removed.crossFraction;
        doc.circle(cx, cy, 3.2).moveTo(cx - d, cy - d).lineTo(cx + d, cy + d).moveTo(cx + d, cy - d).lineTo(cx - d, cy + d);
        lineOf(doc, SPOTS.removed, u).stroke();
      },
    ],
  ];
  if (input.marks.length) {
    entries.push([
      f.t('image.legend.mark'),
      (cx, cy) => {
        doc.circle(cx, cy, 3.5);
        fillWith(doc, MARKS.shape.fill);
        strokeWith(doc, MARKS.shape.stroke).lineWidth(MARKS.shape.widthPx * u).fillAndStroke();
      },
    ]);
  }
  const labelX = x + TILE.width + 6;
  let top = y;
  for (const [label, draw] of entries) {
    swatch(doc, x, top, draw);
    doc.font(FONT.regular).fontSize(SIZE.label).fillColor(INK).text(label, labelX, top, { width: x + width - labelX });
    top = Math.max(doc.y, top + TILE.height) + 2.5;
  }
  const model = plan.brightness;
  if (!model || laserDose == null) return top;

  top += 8;
  doc.font(FONT.bold).fontSize(SIZE.body).fillColor(INK).text(f.t('power.bands'), x, top, { width });
  top = doc.y + 3;
  const counts = new Array<number>(POWER_COLOURS.length).fill(0);
  for (const spot of plan.spots) if (spot.enabled && spot.powerFactor != null) counts[powerColour(spot.powerFactor, model)]++;
  const countX = x + width - 36;
  doc.font(FONT.regular).fontSize(SIZE.small).fillColor(MUTED);
  doc.text(f.t('power.range'), labelX, top, { width: countX - labelX, lineBreak: false });
  doc.text(f.t('power.count'), countX, top, { width: 36, align: 'right', lineBreak: false });
  top += 11;
  const bands = powerLegend(model);
  // Highest power first, as the planner's legend reads, each band's colour on the page as the planner's
  // histogram has it: the darkest power colours would be lost on the dark tiles above.
  for (let k = bands.length - 1; k >= 0; k--) {
    const band = bands[k];
    doc.rect(x, top, TILE.width, TILE.height - 2);
    fillWith(doc, spotFill(k)).fill();
    const range = `${f.number(laserDose * band.from, 1)}–${f.mw(laserDose * band.to)}`;
    doc.font(FONT.regular).fontSize(SIZE.label).fillColor(INK).text(range, labelX, top, { width: countX - labelX, lineBreak: false });
    doc.text(f.number(counts[k]), countX, top, { width: 36, align: 'right', lineBreak: false });
    top += TILE.height + 1;
  }
  return top;
}

function signOffSection(doc: Doc, input: ReportInput, f: Formats, y: number): number {
  const { treatment } = input;
  const signOff = treatment.plan.signOff!;
  const set = treatment.plan.parameterSet;
  const rows: Row[] = [
    [f.t('signOff.by'), signOff.by.name],
    [f.t('signOff.at'), f.dateTime(signOff.at)],
  ];
  if (set) {
    rows.push([f.t('signOff.fileName'), treatment.locked ? `${set.fileName} — ${f.t('signOff.withheld')}` : set.fileName]);
    rows.push([f.t('signOff.size'), f.t('signOff.sizeValue', { value: f.number(set.size) })]);
    rows.push([f.t('signOff.sha256'), set.sha256, true]);
  } else {
    rows.push([f.t('signOff.fileName'), f.t('signOff.notPacked')]);
  }
  if (y + 20 + rows.length * 14 > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  return section(doc, MARGIN, y, CONTENT, f.t('signOff.heading'), rows);
}

/**
 * What the laser delivered, beside what was planned: the spots fired and those that were not, the powers, and
 * how far they were from the plan's (delivered − planned: the mean, the largest, and how many spots differ).
 */
function deliverySection(doc: Doc, treatment: Treatment, delivery: ReportDelivery, f: Formats, y: number): number {
  const planned = new Map(treatment.plan.spots.filter((spot) => spot.enabled).map((spot) => [spot.id, spot.powerMw ?? null]));
  const device = delivery.device.description ? `${delivery.device.deviceId} (${delivery.device.description})` : delivery.device.deviceId;
  const powers = delivery.spots.map((spot) => spot.powerMw);
  const rows: Row[] = [
    [f.t('delivery.device'), device],
    [f.t('delivery.at'), f.dateTime(delivery.at)],
    [f.t('delivery.spots'), f.t('delivery.spotsValue', { delivered: f.number(delivery.spots.length), planned: f.number(planned.size) })],
    [f.t('delivery.notDelivered'), f.number(Math.max(0, planned.size - delivery.spots.length))],
  ];
  if (powers.length) {
    rows.push([f.t('delivery.power'), f.t('delivery.powerValue', { min: f.mw(Math.min(...powers)), median: f.mw(median(powers)), max: f.mw(Math.max(...powers)) })]);
  }
  const deviations = delivery.spots.flatMap((spot) => {
    const plannedMw = planned.get(spot.id);
    return plannedMw ? [{ mw: spot.powerMw - plannedMw, percent: ((spot.powerMw - plannedMw) / plannedMw) * 100 }] : [];
  });
  // Signed to the figure shown: a deviation that rounds to zero has no sign.
  const signed = (text: string) => (/[1-9]/.test(text) ? (text.startsWith('-') ? `−${text.slice(1)}` : `+${text}`) : text.replace('-', ''));
  if (deviations.length) {
    const mean = deviations.reduce((sum, d) => sum + d.mw, 0) / deviations.length;
    const meanPercent = deviations.reduce((sum, d) => sum + d.percent, 0) / deviations.length;
    const largest = deviations.reduce((worst, d) => (Math.abs(d.mw) > Math.abs(worst.mw) ? d : worst));
    // Another power than planned, to the tenth of a milliwatt the report states powers in.
    const off = deviations.filter((d) => Math.abs(d.mw) >= 0.05).length;
    rows.push([f.t('delivery.meanDeviation'), `${signed(f.mw(mean))} (${signed(f.number(meanPercent, 1))}\u00a0%)`]);
    rows.push([f.t('delivery.largestDeviation'), `${signed(f.mw(largest.mw))} (${signed(f.number(largest.percent, 1))}\u00a0%)`]);
    rows.push([f.t('delivery.offPlan'), f.number(off)]);
  }
  if (y + 20 + rows.length * 14 > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  return section(doc, MARGIN, y, CONTENT, f.t('delivery.heading'), rows);
}

/** A mark's figures in the report's language; an estimated scale is said beside them. */
function measurementText(measurement: MarkMeasurement | null, f: Formats): string {
  if (!measurement) return '–';
  const dd = (value: number | null) => (value === null ? '' : ` (${f.t('marks.dd', { value: f.number(value, 2) })})`);
  const text =
    measurement.kind === 'line'
      ? `${f.number(measurement.lengthUm)}\u00a0µm${dd(measurement.lengthDd)}`
      : measurement.kind === 'circle'
        ? f.t('marks.circle', { diameter: f.number(measurement.diameterUm), dd: dd(measurement.diameterDd), area: f.number(measurement.areaMm2, 4) })
        : f.t('marks.polygon', { area: f.number(measurement.areaMm2, 4), perimeter: f.number(measurement.perimeterUm) });
  return measurement.scaleSource === 'estimated' ? `${text} ${f.t('marks.estimated')}` : text;
}

function marksTable(doc: Doc, marks: readonly ReportMark[], f: Formats, y: number) {
  if (y + 60 > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  let top = sectionHeading(doc, MARGIN, y, CONTENT, f.t('marks.heading'));
  const labelX = MARGIN + 24;
  const measurementX = MARGIN + 24 + CONTENT * 0.5;
  const labelWidth = measurementX - labelX - 10;
  const measurementWidth = MARGIN + CONTENT - measurementX;
  doc.font(FONT.regular).fontSize(SIZE.small).fillColor(MUTED);
  doc.text(f.t('marks.label'), labelX, top, { lineBreak: false });
  doc.text(f.t('marks.measurement'), measurementX, top, { lineBreak: false });
  top += 11;
  marks.forEach((mark, index) => {
    const measurement = measurementText(mark.measurement, f);
    const label = mark.label ?? f.t('marks.noLabel');
    doc.font(FONT.regular).fontSize(SIZE.body);
    const labelHeight = doc.heightOfString(label, { width: labelWidth });
    const measurementHeight = doc.heightOfString(measurement, { width: measurementWidth });
    doc.fontSize(SIZE.label);
    const noteHeight = mark.note ? doc.heightOfString(mark.note, { width: labelWidth }) + 1 : 0;
    const height = Math.max(labelHeight + noteHeight, measurementHeight, TAG_HEIGHT - 1.5);
    if (top + height > BOTTOM) {
      doc.addPage();
      top = MARGIN;
    }
    markTag(doc, index + 1, MARGIN, top - 1.5);
    // A ruler without a label says so, in the muted colour of what is not a finding.
    doc.font(FONT.regular).fontSize(SIZE.body).fillColor(mark.label === null ? MUTED : INK).text(label, labelX, top, { width: labelWidth });
    doc.fillColor(INK);
    doc.text(measurement, measurementX, top, { width: measurementWidth });
    if (mark.note) doc.fontSize(SIZE.label).fillColor(MUTED).text(mark.note, labelX, top + labelHeight + 1, { width: labelWidth });
    top += height + 4;
  });
}

/** Every page names the patient and the session, as a page of a patient record must. */
function footers(doc: Doc, input: ReportInput, f: Formats) {
  const { patient, treatment } = input;
  const footer = f.t('footer', { patient: `${patient.secondName}, ${patient.name}`, birthday: f.date(patient.birthday) });
  const { count } = doc.bufferedPageRange();
  for (let page = 0; page < count; page++) {
    doc.switchToPage(page);
    // Text below the bottom margin would start a new page: the footer sits in the margin on purpose.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 30;
    doc.moveTo(MARGIN, y - 6).lineTo(MARGIN + CONTENT, y - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.font(FONT.regular).fontSize(SIZE.small).fillColor(MUTED);
    const right = f.t('page', { id: treatment.id, page: page + 1, pages: count });
    const rightWidth = doc.widthOfString(right) + 2;
    doc.text(right, MARGIN + CONTENT - rightWidth, y, { width: rightWidth, align: 'right', lineBreak: false });
    doc.text(footer, MARGIN, y, { width: CONTENT - rightWidth - 12, height: SIZE.small * 1.5, ellipsis: true });
    doc.page.margins.bottom = margin;
  }
}

// --- Determinism and coverage --------------------------------------------------------------------------------

/**
 * pdfkit derives the trailer's /ID from the document's info only; the report's /ID is the SHA-256 (first 16
 * bytes) of the file itself, so two reports share an /ID only when they are the same bytes. It is the last
 * hexadecimal string of the file and the same length as pdfkit's, so no offset in the cross-reference moves.
 */
function withContentId(pdf: Buffer): Buffer {
  const trailer = pdf.lastIndexOf('/ID [<');
  if (trailer < 0) return pdf;
  const first = trailer + '/ID [<'.length;
  const second = pdf.indexOf('<', first) + 1;
  const id = createHash('sha256').update(pdf).digest('hex').slice(0, 32);
  pdf.write(id, first, 'latin1');
  pdf.write(id, second, 'latin1');
  return pdf;
}

type GlyphSource = { _font?: { font?: { hasGlyphForCodePoint?: (codePoint: number) => boolean } } };

/**
 * Whether the regular font has a glyph for every character of `texts`. pdfkit has no public call for this; the
 * fontkit font it embeds through has one. Characters without a glyph print as empty boxes.
 */
function covers(doc: Doc, texts: string[]): boolean {
  doc.font(FONT.regular);
  const font = (doc as unknown as GlyphSource)._font?.font;
  if (!font?.hasGlyphForCodePoint) return true;
  return texts.every((text) => [...text].every((char) => /\s/.test(char) || font.hasGlyphForCodePoint!(char.codePointAt(0)!)));
}
