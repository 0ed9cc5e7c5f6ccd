// Fractal noise (fBm) for the fundus textures: pigment patches and choroidal vessels. Evaluated one image
// row at a time so that even 4096-pixel images need no full-size noise buffers.
import type { SeededRandom } from './seeded-random';

export interface FractalNoiseOptions {
  /**
   * value: random heights on a lattice, smoothly interpolated (soft blotches).
   * gradient: random slopes on a lattice (Perlin); its zero crossings wander freely, which ridged textures
   * such as choroidal vessels need (value noise shows its square lattice there).
   */
  kind: 'value' | 'gradient';
  /** Lattice spacing of the coarsest octave, in pixels. */
  cellSize: number;
  octaves: number;
  /** Amplitude factor from one octave to the next (default 0.5). */
  gain?: number;
  /** Frequency factor from one octave to the next (default 2). */
  lacunarity?: number;
}

export interface FractalNoise {
  readonly width: number;
  readonly height: number;
  /**
   * Writes the noise of row y (at pixel centres) into out[fromX … toX-1] (default: the whole row); values
   * lie within [-1, 1].
   */
  fillRow(y: number, out: Float32Array, fromX?: number, toX?: number): void;
}

interface Octave {
  cellSize: number;
  /** Amplitude already divided by the sum of all amplitudes. */
  weight: number;
  columns: number;
  /** value: one height per lattice point; gradient: a unit vector (x, y) per lattice point. */
  lattice: Float32Array;
  // Per image column, computed once because every row needs them: the lattice column to the left, the
  // offset from it in cells, and the smoothed interpolation weight.
  latticeColumn: Int32Array;
  offsetX: Float32Array;
  weightX: Float32Array;
}

// Octaves finer than this would alias: the pixel grid cannot show them.
const FINEST_CELL_PX = 2;
// 2-D gradient noise with unit gradients stays within ±√½; this scales it to ±1.
const GRADIENT_SCALE = Math.SQRT2;

const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);

export function createFractalNoise(
  width: number,
  height: number,
  options: FractalNoiseOptions,
  random: SeededRandom,
): FractalNoise {
  const { kind, cellSize, octaves, gain = 0.5, lacunarity = 2 } = options;
  if (!(cellSize > 0) || !Number.isInteger(octaves) || octaves < 1 || !(lacunarity > 1)) {
    throw new RangeError('fractal noise needs a positive cell size, at least one octave and a lacunarity above 1');
  }
  const levels: Octave[] = [];
  let size = cellSize;
  let amplitude = 1;
  for (let level = 0; level < octaves && (level === 0 || size >= FINEST_CELL_PX); level++) {
    const columns = Math.ceil(width / size) + 2;
    const rows = Math.ceil(height / size) + 2;
    const lattice = new Float32Array(kind === 'value' ? columns * rows : 2 * columns * rows);
    if (kind === 'value') {
      for (let i = 0; i < lattice.length; i++) lattice[i] = random.next() * 2 - 1;
    } else {
      for (let i = 0; i < lattice.length; i += 2) {
        const angle = random.next() * 2 * Math.PI;
        lattice[i] = Math.cos(angle);
        lattice[i + 1] = Math.sin(angle);
      }
    }
    const latticeColumn = new Int32Array(width);
    const offsetX = new Float32Array(width);
    const weightX = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      const gx = (x + 0.5) / size;
      const column = Math.floor(gx);
      latticeColumn[x] = column;
      offsetX[x] = gx - column;
      weightX[x] = fade(gx - column);
    }
    levels.push({ cellSize: size, weight: amplitude, columns, lattice, latticeColumn, offsetX, weightX });
    size /= lacunarity;
    amplitude *= gain;
  }
  const amplitudeSum = levels.reduce((total, octave) => total + octave.weight, 0);
  for (const octave of levels) octave.weight /= amplitudeSum;

  const fillValueOctave = (octave: Octave, y: number, out: Float32Array, fromX: number, toX: number) => {
    const { cellSize: cell, weight, columns, lattice, latticeColumn, weightX } = octave;
    const gy = (y + 0.5) / cell;
    const row = Math.floor(gy);
    const wy = fade(gy - row);
    const top = row * columns;
    const bottom = top + columns;
    for (let x = fromX; x < toX; x++) {
      const c = latticeColumn[x];
      const wx = weightX[x];
      const upper = lattice[top + c] + (lattice[top + c + 1] - lattice[top + c]) * wx;
      const lower = lattice[bottom + c] + (lattice[bottom + c + 1] - lattice[bottom + c]) * wx;
      out[x] += (upper + (lower - upper) * wy) * weight;
    }
  };

  const fillGradientOctave = (octave: Octave, y: number, out: Float32Array, fromX: number, toX: number) => {
    const { cellSize: cell, weight, columns, lattice, latticeColumn, offsetX, weightX } = octave;
    const gy = (y + 0.5) / cell;
    const row = Math.floor(gy);
    const dy = gy - row;
    const wy = fade(dy);
    const top = 2 * row * columns;
    const bottom = top + 2 * columns;
    const scaled = weight * GRADIENT_SCALE;
    for (let x = fromX; x < toX; x++) {
      const c = 2 * latticeColumn[x];
      const dx = offsetX[x];
      const wx = weightX[x];
      const n00 = lattice[top + c] * dx + lattice[top + c + 1] * dy;
      const n10 = lattice[top + c + 2] * (dx - 1) + lattice[top + c + 3] * dy;
      const n01 = lattice[bottom + c] * dx + lattice[bottom + c + 1] * (dy - 1);
      const n11 = lattice[bottom + c + 2] * (dx - 1) + lattice[bottom + c + 3] * (dy - 1);
      const upper = n00 + (n10 - n00) * wx;
      const lower = n01 + (n11 - n01) * wx;
      out[x] += (upper + (lower - upper) * wy) * scaled;
    }
  };

  const fillOctave = kind === 'value' ? fillValueOctave : fillGradientOctave;
  return {
    width,
    height,
    fillRow(y, out, fromX = 0, toX = width) {
      const from = Math.max(0, Math.floor(fromX));
      const to = Math.min(width, Math.ceil(toX));
      out.fill(0, from, to);
      for (const octave of levels) fillOctave(octave, y, out, from, to);
    },
  };
}
