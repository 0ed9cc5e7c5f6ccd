// A synthetic colour fundus photograph (45° field, macula-centred) with known optic disc and fovea, for
// demos and tests: the detector and the planning steps can be checked against the exact truth.
import { createRaster, type FundusLandmarks, type Point, type Raster } from './raster';
import { growRetinalVessels, type VesselSegment } from './retinal-vessels';
import { createSeededRandom, type SeededRandom } from './seeded-random';
import { createFractalNoise } from './fractal-noise';

export interface SyntheticFundusOptions {
  /** 256 … 4096 (default 1600). */
  width?: number;
  /** 256 … 4096 (default 1200). */
  height?: number;
  eye: 'OD' | 'OS';
  /** Everything in the picture follows from the seed (and the eye and size). */
  seed: number;
}

export interface SyntheticFundus {
  raster: Raster;
  /** Exact optic disc centre and radius (geometric mean of the disc's semi-axes) and fovea, in pixels. */
  truth: FundusLandmarks;
  /** 4760 µm (the anatomical disc–fovea distance) over the painted disc–fovea distance in pixels. */
  umPerPixel: number;
}

export const SYNTHETIC_FUNDUS_DEFAULT_WIDTH = 1600;
export const SYNTHETIC_FUNDUS_DEFAULT_HEIGHT = 1200;
export const SYNTHETIC_FUNDUS_MIN_SIZE = 256;
export const SYNTHETIC_FUNDUS_MAX_SIZE = 4096;

/** Anatomical disc–fovea distance (Beijing Eye Study), the basis of the scale. */
export const DISC_FOVEA_DISTANCE_UM = 4760;
/**
 * Disc–fovea distance over the diameter of the circular field: 4.76 mm over a 45° field at 288 µm per
 * degree. Expressed against the field, not the frame, because frame aspect ratios differ between cameras
 * (IDRiD's 1310 px at 4288 px wide is the same proportion of its ≈3500 px field).
 */
export const DISC_FOVEA_FIELD_RATIO = DISC_FOVEA_DISTANCE_UM / (45 * 288);
/** Relative spread of the disc–fovea distance (IDRiD: SD 84 px of 1310 px). */
export const DISC_FOVEA_RELATIVE_SD = 0.06;

const DEG = Math.PI / 180;

interface Anatomy {
  fieldCenter: Point;
  fieldRadiusPx: number;
  fovea: Point;
  discCenter: Point;
  discRadiusPx: number;
  discFoveaPx: number;
  umPerPixel: number;
}

// Everything is laid out for a right eye (disc to the right of the fovea); a left eye is its mirror image.
function layOutAnatomy(width: number, height: number, random: SeededRandom): Anatomy {
  const fieldCenter = { x: width / 2, y: height / 2 };
  const fieldRadiusPx = (Math.min(width, height) / 2) * random.uniform(0.93, 0.975);
  const fieldDiameterPx = 2 * fieldRadiusPx;
  const spread = Math.max(-2.5, Math.min(2.5, random.normal()));
  const discFoveaPx = fieldDiameterPx * DISC_FOVEA_FIELD_RATIO * (1 + DISC_FOVEA_RELATIVE_SD * spread);
  const discRadiusPx = fieldDiameterPx / random.uniform(7, 8.5) / 2;
  // Macula-centred framing: the fovea sits a little temporal of the centre and slightly low (IDRiD medians:
  // fovea at 0.44 of the width and 0.54 of the height, disc at 0.745).
  const fovea = {
    x: fieldCenter.x - fieldRadiusPx * random.uniform(0.08, 0.2),
    y: fieldCenter.y + fieldRadiusPx * random.uniform(-0.02, 0.08),
  };
  const belowHorizontal = random.uniform(4, 10) * DEG;
  const discCenter = {
    x: fovea.x + discFoveaPx * Math.cos(belowHorizontal),
    y: fovea.y - discFoveaPx * Math.sin(belowHorizontal),
  };
  return {
    fieldCenter,
    fieldRadiusPx,
    fovea,
    discCenter,
    discRadiusPx,
    discFoveaPx,
    umPerPixel: DISC_FOVEA_DISTANCE_UM / discFoveaPx,
  };
}

/** How one fundus looks: pigmentation, camera exposure and the shape of disc and macula. */
interface Appearance {
  base: [number, number, number];
  gamma: number;
  vignette: number;
  vignettePower: number;
  illuminationCenter: Point;
  pigmentVariation: number;
  grain: number;
  choroidStrength: number;
  maculaSigmaPx: number;
  maculaDepth: number;
  foveaSigmaPx: number;
  foveaDepth: number;
  reflexSigmaPx: number;
  reflexStrength: number;
  glowSigmaPx: number;
  glowStrength: number;
  discSemiAxes: [number, number];
  discRotation: number;
  discRim: [number, number, number];
  cupRadiusPx: number;
  cupCenter: Point;
  cupColour: [number, number, number];
  discOpacity: number;
  /** Peripapillary atrophy: a pale crescent on the temporal disc margin, as a fraction of the disc radius (0: none). */
  crescentWidth: number;
  crescentColour: [number, number, number];
  veinAbsorptionPerPx: number;
  arteryAbsorptionPerPx: number;
  umPerPixel: number;
}

function chooseAppearance(anatomy: Anatomy, random: SeededRandom): Appearance {
  const { discFoveaPx, discRadiusPx, discCenter, fieldCenter, fieldRadiusPx, umPerPixel } = anatomy;
  const pigmentation = random.next();
  const tintGreen = random.uniform(0.85, 1.2);
  const tintBlue = random.uniform(0.7, 1.3);
  const elongation = random.uniform(1.0, 1.12);
  const cupToDisc = random.uniform(0.25, 0.55);
  const cupShift = random.uniform(0.05, 0.3) * discRadiusPx;
  const exposure = random.uniform(0.85, 1.15);
  const base: [number, number, number] = [
    (0.78 - 0.2 * pigmentation) * exposure,
    (0.34 - 0.15 * pigmentation) * tintGreen * exposure,
    (0.19 - 0.11 * pigmentation) * tintBlue * exposure,
  ];
  // The disc is pale against its fundus: relatively more green and blue (yellow-pink) than the deep red
  // background.
  const pallor = random.uniform(0.95, 1.15);
  // Half of it follows the fundus, half is the disc's own orange-pink, which stays bright in dark fundi.
  const discRim: [number, number, number] = [
    Math.min(0.97, (base[0] * 1.4 + 0.95 * exposure) * 0.5 * pallor),
    Math.min(0.75, (base[1] * 1.7 + 0.58 * exposure) * 0.5 * pallor),
    Math.min(0.6, (base[2] * 1.8 + 0.4 * exposure) * 0.5 * pallor),
  ];
  return {
    base,
    gamma: random.uniform(0.85, 1.15),
    vignette: random.uniform(0.35, 0.6),
    vignettePower: random.uniform(1.8, 3),
    illuminationCenter: {
      x: fieldCenter.x + fieldRadiusPx * random.uniform(-0.15, 0.15),
      y: fieldCenter.y + fieldRadiusPx * random.uniform(-0.15, 0.15),
    },
    pigmentVariation: random.uniform(0.07, 0.16),
    grain: random.uniform(0.015, 0.04),
    // Most fundi show the choroid faintly; some (myopic, pigmented) are clearly tessellated.
    choroidStrength: random.chance(0.3) ? random.uniform(0.15, 0.3) : random.uniform(0.02, 0.08),
    maculaSigmaPx: discFoveaPx * random.uniform(0.2, 0.3),
    maculaDepth: random.uniform(0.15, 0.28),
    foveaSigmaPx: discFoveaPx * random.uniform(0.045, 0.07),
    foveaDepth: random.uniform(0.1, 0.2),
    reflexSigmaPx: Math.max(0.6, discFoveaPx * 0.006),
    reflexStrength: random.chance(0.7) ? random.uniform(0.03, 0.12) : 0,
    glowSigmaPx: discRadiusPx * random.uniform(1.2, 1.7),
    glowStrength: random.uniform(0.03, 0.08),
    discSemiAxes: [discRadiusPx / Math.sqrt(elongation), discRadiusPx * Math.sqrt(elongation)],
    discRotation: random.uniform(-15, 15) * DEG,
    discRim,
    cupRadiusPx: cupToDisc * discRadiusPx,
    // The cup lies towards the temporal side of the disc (towards the fovea).
    cupCenter: { x: discCenter.x - cupShift, y: discCenter.y + random.uniform(-0.1, 0.1) * discRadiusPx },
    cupColour: [
      discRim[0] + (1.0 - discRim[0]) * 0.85,
      discRim[1] + (0.95 - discRim[1]) * 0.85,
      discRim[2] + (0.82 - discRim[2]) * 0.85,
    ],
    discOpacity: random.uniform(0.88, 0.97),
    crescentWidth: random.chance(0.35) ? random.uniform(0.12, 0.4) : 0,
    crescentColour: [base[0] * 1.15, base[1] * 1.45, base[2] * 1.6],
    // Optical depth per pixel of blood path: a 125 µm vein absorbs about 1 in the green at its centre.
    veinAbsorptionPerPx: (random.uniform(0.9, 1.2) * umPerPixel) / 125,
    arteryAbsorptionPerPx: (random.uniform(0.6, 0.8) * umPerPixel) / 125,
    umPerPixel,
  };
}

// A vessel as a cylinder of blood: the absorption at a pixel is proportional to the chord through it.
// The radius is widened to at least half a pixel while keeping the total absorption, so thin vessels
// fade rather than flicker.
function stampVessel(
  map: Float32Array,
  width: number,
  height: number,
  segment: VesselSegment,
  absorptionPerPx: number,
  umPerPixel: number,
) {
  const { x0, y0, x1, y1, radius0Px, radius1Px } = segment;
  // Thin vessels show more contrast in photographs than their blood volume alone gives (light scattered
  // around the column); a mild calibre-dependent boost matches that.
  const radiusUm = Math.max(1, ((radius0Px + radius1Px) / 2) * umPerPixel);
  const absorption = absorptionPerPx * Math.min(3, (60 / radiusUm) ** 0.45);
  const reach = Math.sqrt(Math.max(radius0Px, radius1Px) ** 2 + 0.25) + 1;
  const left = Math.max(0, Math.floor(Math.min(x0, x1) - reach));
  const right = Math.min(width - 1, Math.ceil(Math.max(x0, x1) + reach));
  const top = Math.max(0, Math.floor(Math.min(y0, y1) - reach));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(y0, y1) + reach));
  const dx = x1 - x0;
  const dy = y1 - y0;
  const lengthSquared = dx * dx + dy * dy || 1;
  for (let py = top; py <= bottom; py++) {
    const ry = py + 0.5 - y0;
    let index = py * width + left;
    for (let px = left; px <= right; px++, index++) {
      const rx = px + 0.5 - x0;
      let t = (rx * dx + ry * dy) / lengthSquared;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ex = rx - t * dx;
      const ey = ry - t * dy;
      const distanceSquared = ex * ex + ey * ey;
      const radius = radius0Px + (radius1Px - radius0Px) * t;
      const widened = radius * radius + 0.25;
      if (distanceSquared >= widened) continue;
      const depth = ((absorption * 2 * Math.sqrt(widened - distanceSquared) * radius * radius) / widened);
      if (depth > map[index]) map[index] = depth;
    }
  }
}

// Powers are too slow per pixel (millions of calls): the loop looks values up in a table of f over
// [0, to], fine enough that the nearest entry is exact to a fraction of a grey level.
const TABLE_ENTRIES = 8192;

function tabulate(to: number, f: (value: number) => number): Float32Array {
  const table = new Float32Array(TABLE_ENTRIES + 1);
  for (let i = 0; i <= TABLE_ENTRIES; i++) table[i] = f((i / TABLE_ENTRIES) * to);
  return table;
}

// Squared distance from the illumination centre over the squared field radius reaches at most (1 + 0.15)².
const VIGNETTING_RANGE = 1.5;
// Colour values before the tone curve stay below 1.5 (the brightest cup, lit by the peripapillary sheen).
const TONE_RANGE = 2;

const smoothstep = (edge0: number, edge1: number, value: number) => {
  const t = Math.min(1, Math.max(0, (value - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};

// Per-channel absorption of blood relative to the green channel: blood is red because it absorbs
// green and blue far more than red; arterial blood absorbs less than venous.
const VEIN_ABSORPTION = [0.32, 1.0, 0.78] as const;
const ARTERY_ABSORPTION = [0.2, 1.0, 0.8] as const;

function paintRightEye(width: number, height: number, anatomy: Anatomy, random: SeededRandom): Raster {
  const look = chooseAppearance(anatomy, random.fork());
  const textureRandom = random.fork();
  const vesselRandom = random.fork();
  const { fieldCenter, fieldRadiusPx, fovea, discCenter } = anatomy;
  const fieldDiameterPx = 2 * fieldRadiusPx;

  const veins = new Float32Array(width * height);
  const arteries = new Float32Array(width * height);
  const segments = growRetinalVessels(
    {
      fieldCenter,
      fieldRadiusPx,
      discCenter,
      discRadiusPx: anatomy.discRadiusPx,
      // The central retinal vessels surface in the cup, slightly nasal of its centre.
      vesselOrigin: { x: look.cupCenter.x + 0.12 * anatomy.discRadiusPx, y: look.cupCenter.y },
      fovea,
      umPerPixel: anatomy.umPerPixel,
      avascularRadiusPx: random.uniform(250, 400) / anatomy.umPerPixel,
    },
    vesselRandom,
  );
  for (const segment of segments) {
    if (segment.kind === 'vein') stampVessel(veins, width, height, segment, look.veinAbsorptionPerPx, look.umPerPixel);
    else stampVessel(arteries, width, height, segment, look.arteryAbsorptionPerPx, look.umPerPixel);
  }

  const pigmentNoise = createFractalNoise(
    width,
    height,
    { kind: 'value', cellSize: fieldDiameterPx / 4, octaves: 5 },
    textureRandom,
  );
  const choroidNoise = createFractalNoise(
    width,
    height,
    { kind: 'gradient', cellSize: fieldDiameterPx / 10, octaves: 3, gain: 0.5 },
    textureRandom,
  );
  // Fine granularity of the pigment epithelium, a few pixels across.
  const grainNoise = createFractalNoise(
    width,
    height,
    { kind: 'value', cellSize: Math.max(2, fieldDiameterPx / 180), octaves: 2 },
    textureRandom,
  );
  const pigmentRow = new Float32Array(width);
  const grainRow = new Float32Array(width);
  const choroidRow = new Float32Array(width);

  const raster = createRaster(width, height);
  const data = raster.data;
  const edgeSoftnessPx = Math.max(1, fieldRadiusPx * 0.012);
  const [baseR, baseG, baseB] = look.base;
  const [semiA, semiB] = look.discSemiAxes;
  const cosRotation = Math.cos(look.discRotation);
  const sinRotation = Math.sin(look.discRotation);
  const discEdge = 0.08;
  const cupEdge = 0.25;
  const maculaFactor = -1 / (2 * look.maculaSigmaPx ** 2);
  const foveaFactor = -1 / (2 * look.foveaSigmaPx ** 2);
  const reflexFactor = -1 / (2 * look.reflexSigmaPx ** 2);
  const glowFactor = -1 / (2 * look.glowSigmaPx ** 2);
  const maculaReachSquared = (4 * look.maculaSigmaPx) ** 2;
  const glowReachSquared = (3.5 * look.glowSigmaPx) ** 2;
  const discReach = Math.max(semiA, semiB) * (1 + look.crescentWidth + discEdge) + 2;
  const inverseFieldRadiusSquared = 1 / (fieldRadiusPx * fieldRadiusPx);
  const vignetting = tabulate(VIGNETTING_RANGE, (rimSquared) =>
    Math.max(0.05, 1 - look.vignette * rimSquared ** (look.vignettePower / 2)),
  );
  const vignettingScale = TABLE_ENTRIES / VIGNETTING_RANGE;
  const toneCurve = tabulate(TONE_RANGE, (value) => 255 * value ** look.gamma);
  const toneScale = TABLE_ENTRIES / TONE_RANGE;
  const { pigmentVariation, grain, choroidStrength, maculaDepth, foveaDepth, reflexStrength, glowStrength } = look;
  const { crescentWidth, crescentColour, discOpacity, cupCenter, cupRadiusPx, discRim, cupColour } = look;
  const { illuminationCenter } = look;
  const outerRadius = fieldRadiusPx + edgeSoftnessPx;
  const innerRadiusSquared = (fieldRadiusPx - edgeSoftnessPx) ** 2;

  for (let y = 0; y < height; y++) {
    const py = y + 0.5;
    const rowOffset = py - fieldCenter.y;
    if (Math.abs(rowOffset) >= outerRadius) continue;
    // Only the chord of the field of view is painted; the surround stays black.
    const halfChord = Math.sqrt(outerRadius * outerRadius - rowOffset * rowOffset);
    const fromX = Math.max(0, Math.floor(fieldCenter.x - halfChord));
    const toX = Math.min(width, Math.ceil(fieldCenter.x + halfChord));
    pigmentNoise.fillRow(y, pigmentRow, fromX, toX);
    choroidNoise.fillRow(y, choroidRow, fromX, toX);
    grainNoise.fillRow(y, grainRow, fromX, toX);
    for (let x = fromX; x < toX; x++) {
      const index = y * width + x;
      const px = x + 0.5;
      const fieldSquared = (px - fieldCenter.x) ** 2 + rowOffset * rowOffset;
      const mask =
        fieldSquared <= innerRadiusSquared ? 1 : smoothstep(outerRadius, outerRadius - 2 * edgeSoftnessPx, Math.sqrt(fieldSquared));
      if (mask <= 0) continue;

      const pigment = 1 + pigmentVariation * pigmentRow[x] + grain * grainRow[x];
      // Ridged noise: bands where the noise crosses zero look like choroidal vessels, the rest like the
      // darker, pigmented spaces between them.
      const band = Math.max(0, 1 - Math.abs(choroidRow[x]) / 0.14);
      // The choroid shows more towards the periphery; macular pigment hides it at the centre.
      const choroid = choroidStrength * (0.4 + 0.6 * fieldSquared * inverseFieldRadiusSquared) * (band * band - 0.2);
      let r = baseR * pigment * (1 + 0.6 * choroid);
      let g = baseG * pigment * pigment * (1 + 0.45 * choroid);
      let b = baseB * pigment * (1 + 0.15 * choroid);

      const fdx = px - fovea.x;
      const fdy = py - fovea.y;
      const foveaSquared = fdx * fdx + fdy * fdy;
      if (foveaSquared < maculaReachSquared) {
        // Macular pigment and the thinner fovea: darker and browner (green drops more than red).
        const darkening =
          maculaDepth * Math.exp(foveaSquared * maculaFactor) + foveaDepth * Math.exp(foveaSquared * foveaFactor);
        r *= 1 - darkening;
        g *= 1 - 1.25 * darkening;
        b *= 1 - 1.1 * darkening;
        const reflex = reflexStrength * Math.exp(foveaSquared * reflexFactor);
        r += reflex * 0.6;
        g += reflex * 0.5;
        b += reflex * 0.4;
      }

      const ddx = px - discCenter.x;
      const ddy = py - discCenter.y;
      const discSquared = ddx * ddx + ddy * ddy;
      if (discSquared < glowReachSquared) {
        // Peripapillary sheen of the nerve fibre layer.
        const glow = 1 + glowStrength * Math.exp(discSquared * glowFactor);
        r *= glow;
        g *= glow;
        b *= glow;
      }
      if (Math.abs(ddx) < discReach && Math.abs(ddy) < discReach) {
        const u = (ddx * cosRotation + ddy * sinRotation) / semiA;
        const v = (-ddx * sinRotation + ddy * cosRotation) / semiB;
        const ellipse = Math.sqrt(u * u + v * v);
        // Cosine of the angle to the temporal side (towards the fovea, -x in a right eye).
        const temporal = -ddx / (Math.sqrt(discSquared) + 1e-6);
        if (crescentWidth > 0 && temporal > 0 && ellipse < 1 + crescentWidth + discEdge) {
          const crescent =
            0.8 *
            smoothstep(1 - discEdge, 1, ellipse) *
            smoothstep(1 + crescentWidth + discEdge, 1 + crescentWidth - discEdge, ellipse) *
            temporal *
            Math.sqrt(temporal) *
            (1 + 0.6 * choroidRow[x]);
          r += (crescentColour[0] - r) * crescent;
          g += (crescentColour[1] - g) * crescent;
          b += (crescentColour[2] - b) * crescent;
        }
        const discAlpha = discOpacity * smoothstep(1 + discEdge, 1 - discEdge, ellipse);
        if (discAlpha > 0) {
          const cupDistance = Math.sqrt((px - cupCenter.x) ** 2 + (py - cupCenter.y) ** 2) / cupRadiusPx;
          const cup = smoothstep(1 + cupEdge, 1 - cupEdge, cupDistance);
          // The neuroretinal rim brightens towards the cup and is pinker on the nasal side.
          const shade = (1 + 0.15 * (1 - Math.min(1, ellipse))) * (1 + 0.5 * pigmentVariation * pigmentRow[x]);
          const pink = 1 - 0.12 * Math.max(0, -temporal);
          const discR = (discRim[0] + (cupColour[0] - discRim[0]) * cup) * shade;
          const discG = (discRim[1] * pink + (cupColour[1] - discRim[1] * pink) * cup) * shade;
          const discB = (discRim[2] * pink + (cupColour[2] - discRim[2] * pink) * cup) * shade;
          r += (discR - r) * discAlpha;
          g += (discG - g) * discAlpha;
          b += (discB - b) * discAlpha;
        }
      }

      const vein = veins[index];
      const artery = arteries[index];
      if (vein > 0 || artery > 0) {
        r *= Math.exp(-(vein * VEIN_ABSORPTION[0] + artery * ARTERY_ABSORPTION[0]));
        g *= Math.exp(-(vein * VEIN_ABSORPTION[1] + artery * ARTERY_ABSORPTION[1]));
        b *= Math.exp(-(vein * VEIN_ABSORPTION[2] + artery * ARTERY_ABSORPTION[2]));
      }

      const rimSquared =
        ((px - illuminationCenter.x) ** 2 + (py - illuminationCenter.y) ** 2) * inverseFieldRadiusSquared;
      const light = mask * vignetting[Math.min(TABLE_ENTRIES, (rimSquared * vignettingScale + 0.5) | 0)];
      const offset = index * 3;
      data[offset] = toneCurve[Math.min(TABLE_ENTRIES, Math.max(0, (r * light * toneScale + 0.5) | 0))];
      data[offset + 1] = toneCurve[Math.min(TABLE_ENTRIES, Math.max(0, (g * light * toneScale + 0.5) | 0))];
      data[offset + 2] = toneCurve[Math.min(TABLE_ENTRIES, Math.max(0, (b * light * toneScale + 0.5) | 0))];
    }
  }
  return raster;
}

// The camera's optics are softer than one pixel at these resolutions, and its sensor adds noise (mostly in
// brightness, a little in colour). A separable Gaussian whose horizontal pass feeds a ring of rows keeps
// the vertical pass cache-friendly and needs no second full-size buffer.
function blurAndAddSensorNoise(
  raster: Raster,
  columns: { from: number; to: number },
  sigmaPx: number,
  noiseAmplitude: number,
  noiseSeed: number,
): void {
  const { width, height, data } = raster;
  // Outside the field of view everything is black: only the columns it spans need work.
  const fromColumn = Math.max(0, Math.floor(columns.from));
  const toColumn = Math.min(width, Math.ceil(columns.to));
  const radius = Math.max(1, Math.ceil(2.5 * sigmaPx));
  const taps = 2 * radius + 1;
  const kernel = new Float32Array(taps);
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    kernel[i] = Math.exp(-((i - radius) ** 2) / (2 * sigmaPx * sigmaPx));
    sum += kernel[i];
  }
  for (let i = 0; i < taps; i++) kernel[i] /= sum;

  const rowLength = width * 3;
  const ring = new Float32Array(taps * rowLength);
  const ringSlot = (y: number) => ((y % taps) + taps) % taps;
  const blurRowInto = (y: number) => {
    const source = Math.min(height - 1, Math.max(0, y)) * rowLength;
    const target = ringSlot(y) * rowLength;
    for (let x = fromColumn; x < toColumn; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const inside = x >= radius && x < width - radius;
      for (let k = 0; k < taps; k++) {
        const sx = x + k - radius;
        const o = source + (inside ? sx : sx < 0 ? 0 : sx >= width ? width - 1 : sx) * 3;
        const w = kernel[k];
        r += data[o] * w;
        g += data[o + 1] * w;
        b += data[o + 2] * w;
      }
      const t = target + x * 3;
      ring[t] = r;
      ring[t + 1] = g;
      ring[t + 2] = b;
    }
  };

  let state = noiseSeed >>> 0 || 0x9e3779b9;
  const byteScale = noiseAmplitude / 255;
  const rowsInRing = new Int32Array(taps);

  for (let y = -radius; y < radius; y++) blurRowInto(y);
  for (let y = 0; y < height; y++) {
    // Row y + radius is read before row y is overwritten, and rows above y live on in the ring.
    blurRowInto(y + radius);
    for (let k = 0; k < taps; k++) rowsInRing[k] = ringSlot(y + k - radius) * rowLength;
    const rowStart = y * rowLength;
    for (let i = fromColumn * 3; i < toColumn * 3; i += 3) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < taps; k++) {
        const o = rowsInRing[k] + i;
        const w = kernel[k];
        r += ring[o] * w;
        g += ring[o + 1] * w;
        b += ring[o + 2] * w;
      }
      // xorshift32, inline to keep the loop free of calls and allocations.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      // Two bytes summed give a triangular brightness noise; a third a smaller colour jitter.
      const luminance = ((state & 0xff) + ((state >>> 8) & 0xff) - 255) * byteScale;
      const chroma = (((state >>> 16) & 0xff) - 127.5) * byteScale * 0.5;
      data[rowStart + i] = r + luminance + chroma;
      data[rowStart + i + 1] = g + luminance;
      data[rowStart + i + 2] = b + luminance - chroma;
    }
  }
}

function mirrorHorizontally(raster: Raster): void {
  const { width, height, data } = raster;
  for (let y = 0; y < height; y++) {
    let left = y * width * 3;
    let right = left + (width - 1) * 3;
    while (left < right) {
      for (let c = 0; c < 3; c++) {
        const swap = data[left + c];
        data[left + c] = data[right + c];
        data[right + c] = swap;
      }
      left += 3;
      right -= 3;
    }
  }
}

export function paintSyntheticFundus(options: SyntheticFundusOptions): SyntheticFundus {
  const width = options.width ?? SYNTHETIC_FUNDUS_DEFAULT_WIDTH;
  const height = options.height ?? SYNTHETIC_FUNDUS_DEFAULT_HEIGHT;
  for (const [name, size] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(size) || size < SYNTHETIC_FUNDUS_MIN_SIZE || size > SYNTHETIC_FUNDUS_MAX_SIZE) {
      throw new RangeError(
        `${name} must be an integer from ${SYNTHETIC_FUNDUS_MIN_SIZE} to ${SYNTHETIC_FUNDUS_MAX_SIZE}, got ${size}`,
      );
    }
  }
  const random = createSeededRandom(options.seed);
  const anatomy = layOutAnatomy(width, height, random.fork());
  const raster = paintRightEye(width, height, anatomy, random.fork());
  const blurSigmaPx = Math.max(0.45, 7 / anatomy.umPerPixel);
  const reach = anatomy.fieldRadiusPx * 1.02 + 3 * blurSigmaPx + 2;
  blurAndAddSensorNoise(
    raster,
    { from: anatomy.fieldCenter.x - reach, to: anatomy.fieldCenter.x + reach },
    blurSigmaPx,
    random.uniform(1.5, 3),
    random.integer(1, 0xffffffff),
  );

  const truth: FundusLandmarks = {
    opticDisc: { center: { ...anatomy.discCenter }, radiusPx: anatomy.discRadiusPx },
    fovea: { ...anatomy.fovea },
  };
  if (options.eye === 'OS') {
    // The left eye is the mirror image of the right one; pixel i covers [i, i + 1), so x maps to width - x.
    mirrorHorizontally(raster);
    truth.opticDisc.center.x = width - truth.opticDisc.center.x;
    truth.fovea.x = width - truth.fovea.x;
  }
  return { raster, truth, umPerPixel: anatomy.umPerPixel };
}
