// A small deterministic random source, so that a synthetic exam is reproducible from its seed alone on
// every platform (Math.random cannot be seeded).

export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  uniform(min: number, max: number): number;
  /** Uniform integer in [min, max], both ends included. */
  integer(min: number, max: number): number;
  /** Normally distributed (Box–Muller). */
  normal(mean?: number, standardDeviation?: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /**
   * An independent stream derived from this one: a consumer that draws a varying number of values
   * (e.g. a vessel tree) then does not shift the values drawn by the next consumer.
   */
  fork(): SeededRandom;
}

// mulberry32: 32 bits of state, full period 2^32, good enough for textures and layout jitter.
function mulberry32(initialState: number): () => number {
  let state = initialState >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Seeds above 2^32, negative or fractional seeds still give distinct streams: both halves of the
// number are mixed into the 32-bit state.
function mixSeed(seed: number): number {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  const fraction = Math.floor((seed - Math.floor(seed)) * 4294967296) >>> 0;
  let h = Math.imul(low ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ high, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ fraction, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

export function createSeededRandom(seed: number): SeededRandom {
  const next = mulberry32(mixSeed(seed));
  const random: SeededRandom = {
    next,
    uniform: (min, max) => min + (max - min) * next(),
    integer: (min, max) => {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
        throw new RangeError(`integer bounds must be integers with min <= max, got ${min}, ${max}`);
      }
      return min + Math.floor(next() * (max - min + 1));
    },
    normal: (mean = 0, standardDeviation = 1) => {
      // 1 - next() lies in (0, 1], so the logarithm is finite.
      const u = 1 - next();
      const v = next();
      return mean + standardDeviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('cannot pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    fork: () => createSeededRandom(Math.floor(next() * 4294967296)),
  };
  return random;
}
