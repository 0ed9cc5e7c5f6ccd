// Resource limits of the reader. Everything the reader allocates is bounded by these, so a hostile upload
// cannot exhaust the server's memory or time.

export interface NptLimits {
  /** Size of the whole .npt file. */
  maxFileBytes: number;
  /** ZIP entries, counted from the end-of-central-directory record before the directory is walked. */
  maxEntries: number;
  /** Sum of the declared uncompressed sizes of all entries (and of each single entry). */
  maxUncompressedBytes: number;
  /** Uncompressed size of manifest.json. */
  maxManifestBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_NPT_LIMITS: NptLimits = Object.freeze({
  maxFileBytes: 100 * MIB,
  maxEntries: 32,
  maxUncompressedBytes: 256 * MIB,
  // A signed-off parameter set with the maximum 20,000 spots, pretty-printed, needs about 5 MB; 1 MiB
  // would refuse plans this codec writes itself.
  maxManifestBytes: 8 * MIB,
});

export function resolveLimits(limits: Partial<NptLimits> | undefined): NptLimits {
  return { ...DEFAULT_NPT_LIMITS, ...definedOnly(limits ?? {}) };
}

function definedOnly(limits: Partial<NptLimits>): Partial<NptLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

/** A byte limit as the `limitMb` message parameter (MiB, at most two decimals). */
export function limitInMb(bytes: number): number {
  return Math.round((bytes / MIB) * 100) / 100;
}
