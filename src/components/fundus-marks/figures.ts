// A mark's figures as the UI language writes them. The numbers come rounded from src/domain/annotations (live
// while drawing) or from the server (which computes them with the same code): here they are only formatted,
// and each set of figures says where its scale came from, since an estimated scale is a rougher one.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AnnotationMeasurement } from '@generated/model/annotationMeasurement';
import type { MarkMeasurement } from '@/domain/annotations/measure';
import { formatNumber } from '@/lib/format';

export interface MarkFigures {
  /** The figures, e.g. "2,250 µm · 1.36 DD". */
  readonly values: string;
  /** Where the scale came from, e.g. "scale from the file". */
  readonly source: string;
}

/** A measurement from the domain (live) or as the contract sends it: the same fields. */
type Measurement = MarkMeasurement | AnnotationMeasurement;

export function markFigures(measurement: Measurement | null | undefined, t: TFunction<'marks'>, language: string): MarkFigures | null {
  if (!measurement) return null;
  const n = (value: number, digits = 0) => formatNumber(value, language, digits);
  const dd = (value: number | null) => (typeof value === 'number' ? [t('figures.dd', { value: n(value, 2) })] : []);
  let parts: string[];
  switch (measurement.kind) {
    case 'line':
      parts = [t('figures.length', { um: n(measurement.lengthUm) }), ...dd(measurement.lengthDd)];
      break;
    case 'circle':
      parts = [t('figures.diameter', { um: n(measurement.diameterUm) }), ...dd(measurement.diameterDd), t('figures.area', { value: n(measurement.areaMm2, 4) })];
      break;
    case 'polygon':
      parts = [t('figures.area', { value: n(measurement.areaMm2, 4) }), t('figures.perimeter', { um: n(measurement.perimeterUm) })];
      break;
  }
  return { values: parts.join(' · '), source: t(`source.${measurement.scaleSource}`) };
}

/** `markFigures` in the current UI language. */
export function useMarkFigures() {
  const { t, i18n } = useTranslation('marks');
  return (measurement: Measurement | null | undefined) => markFigures(measurement, t, i18n.language);
}

/** Figures and their scale's source on one line: "2,250 µm · 1.36 DD (scale from the file)". */
export const figuresLine = (figures: MarkFigures) => `${figures.values} (${figures.source})`;
