// Laser profiles of the demo clinic's devices and of the test clinics' laser: figures of the kind a maker's
// specification gives (a 577 nm laser with continuous and micropulse modes, a 532 nm continuous one). The
// sample exams come from SAMPLE_DEVICE, which carries the first.
import type { LaserProfile } from '../../src/domain/planning/clinical-limits';

export const YELLOW_LASER_PROFILE: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 200 } },
    micropulse: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 300 }, dutyCyclePercent: { min: 5, max: 15 } },
  },
};

export const GREEN_LASER_PROFILE: LaserProfile = {
  wavelengthNm: 532,
  spotSizeUm: { min: 50, max: 500 },
  modes: { continuous: { powerMw: { min: 50, max: 1500 }, pulseMs: { min: 10, max: 200 } } },
};
