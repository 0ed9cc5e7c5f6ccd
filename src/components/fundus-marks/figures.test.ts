import { describe, expect, it } from 'vitest';
import { createI18n } from '@/lib/i18n';
import { ALL_CATALOGUES } from '@/testing/catalogues';
import { markFigures } from './figures';

const figures = (language: 'en' | 'de', measurement: Parameters<typeof markFigures>[0]) => {
  const i18n = createI18n(language, ALL_CATALOGUES);
  return markFigures(measurement, i18n.getFixedT(language, 'marks'), language);
};

describe('markFigures', () => {
  it('writes a line in µm and disc diameters with the scale’s source, in either language', () => {
    const line = { kind: 'line' as const, scaleSource: 'manifest' as const, lengthUm: 2250, lengthDd: 1.36 };
    expect(figures('en', line)).toEqual({ values: '2,250 µm · 1.36 DD', source: 'scale from the file' });
    expect(figures('de', line)).toEqual({ values: '2.250 µm · 1,36 PD', source: 'Maßstab aus der Datei' });
  });

  it('says when the scale was estimated, and leaves out disc diameters without a disc', () => {
    const line = { kind: 'line' as const, scaleSource: 'estimated' as const, lengthUm: 750, lengthDd: null };
    expect(figures('de', line)).toEqual({ values: '750 µm', source: 'Maßstab geschätzt aus Papille und Fovea' });
  });

  it('writes a circle’s diameter and area, and a polygon’s area and outline', () => {
    const circle = { kind: 'circle' as const, scaleSource: 'manifest' as const, radiusUm: 300, diameterUm: 600, diameterDd: 0.36, areaMm2: 0.2827 };
    expect(figures('en', circle)?.values).toBe('Ø 600 µm · 0.36 DD · 0.2827 mm²');
    const polygon = { kind: 'polygon' as const, scaleSource: 'manifest' as const, areaMm2: 1.5, perimeterUm: 12345 };
    expect(figures('de', polygon)?.values).toBe('1,5 mm² · Umfang 12.345 µm');
  });

  it('has nothing to say for a point or an image without a scale', () => {
    expect(figures('en', null)).toBeNull();
  });
});
