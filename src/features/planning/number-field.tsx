import { Classes, FormGroup } from '@blueprintjs/core';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface NumberFieldProps {
  label: string;
  unit?: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** Decimals shown. */
  digits?: number;
  disabled?: boolean;
  onChange(value: number): void;
}

const shown = (value: number, digits: number) => String(Number(value.toFixed(digits)));

/**
 * A number of the plan (µm, mW, a factor) typed or stepped with the arrow keys. Every valid value is taken at
 * once (the canvas follows); what is out of range or not a number stays in the field, marked, until it is
 * corrected or left, and then the field shows the plan's value again.
 */
export function NumberField({ label, unit, value, min, max, step, digits = 0, disabled, onChange }: NumberFieldProps) {
  const { t } = useTranslation('planning');
  const id = useId();
  const [text, setText] = useState(shown(value, digits));
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    if (!focused) setText(shown(value, digits));
  }, [value, digits, focused]);
  const parsed = Number(text.replace(',', '.'));
  const invalid = text.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      className="mp-number-field"
      intent={invalid ? 'danger' : 'none'}
      helperText={invalid ? t('outOfRange', { min: shown(min, digits), max: shown(max, digits) }) : undefined}
    >
      <div className={`${Classes.INPUT_GROUP} ${invalid ? Classes.INTENT_DANGER : ''}`}>
        <input
          id={id}
          className={Classes.INPUT}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={text}
          disabled={disabled}
          aria-invalid={invalid}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setText(shown(value, digits));
          }}
          onChange={(event) => {
            const next = event.currentTarget.value;
            setText(next);
            const number = Number(next.replace(',', '.'));
            if (next.trim() !== '' && Number.isFinite(number) && number >= min && number <= max) onChange(number);
          }}
        />
        {unit && <span className="mp-number-unit">{unit}</span>}
      </div>
    </FormGroup>
  );
}
