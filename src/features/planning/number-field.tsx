import { Classes, FormGroup } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumberText, parseNumberText, steppedValue, type NumberTextProblem } from '@/lib/locale-number';

interface NumberFieldProps {
  label: string;
  unit?: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** Decimals shown and taken. */
  digits?: number;
  disabled?: boolean;
  onChange(value: number): void;
}

/** Arrow keys step once, Page Up and Page Down ten times, as a spin button does. */
const STEPS: Record<string, [direction: 1 | -1, times: number]> = { ArrowUp: [1, 1], ArrowDown: [-1, 1], PageUp: [1, 10], PageDown: [-1, 10] };

/**
 * A number of the plan (µm, mW, ms, a factor) typed in the UI language's format (2,5 in German, 2.5 in English;
 * src/lib/locale-number.ts) or stepped with the arrow keys. Every valid value is taken at once (the canvas
 * follows). What is refused (the other decimal mark, too many decimals, out of range, not a number) stays in
 * the field, marked, with the reason and the value the plan keeps, also after the field is left: it is never
 * replaced by another number without a word. Escape puts the plan's value back.
 */
export function NumberField({ label, unit, value, min, max, step, digits = 0, disabled, onChange }: NumberFieldProps) {
  const { t, i18n } = useTranslation('planning');
  const language = i18n.language;
  const id = useId();
  const helpId = useId();
  const show = (number: number) => formatNumberText(number, language, digits);
  const [text, setText] = useState(() => show(value));
  const focused = useRef(false);
  // The plan's value changed elsewhere (undo, a drag on the image, the server): the field shows it, unless
  // the user is typing in it.
  useEffect(() => {
    if (!focused.current) setText(formatNumberText(value, language, digits));
  }, [value, language, digits]);

  const parsed = parseNumberText(text, language, digits);
  const inRange = parsed.ok && parsed.value >= min && parsed.value <= max;
  const example = show(digits > 0 ? 2.5 : 1250);
  const problems: Record<NumberTextProblem, string> = {
    empty: t('number.empty'),
    not_a_number: t('number.notANumber', { example }),
    wrong_separator: digits === 0 ? t('number.wrongSeparatorWhole', { example }) : t('number.wrongSeparator', { example }),
    too_many_decimals: digits === 0 ? t('number.wholeNumber') : t('number.tooManyDecimals', { count: digits }),
  };
  const problem = !parsed.ok ? problems[parsed.problem] : inRange ? null : t('outOfRange', { min: show(min), max: show(max) });

  const take = (next: string) => {
    setText(next);
    const read = parseNumberText(next, language, digits);
    if (read.ok && read.value >= min && read.value <= max && read.value !== value) onChange(read.value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && problem) {
      event.preventDefault();
      event.stopPropagation();
      setText(show(value));
      return;
    }
    const stepping = STEPS[event.key];
    if (!stepping || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    // From what is typed when it is a number, else from the plan's value.
    const from = parsed.ok ? parsed.value : value;
    take(show(steppedValue(from, stepping[0], { min, max, step, digits }, stepping[1])));
  };

  return (
    <FormGroup label={label} labelFor={id} className="mp-number-field" intent={problem ? 'danger' : 'none'}>
      <div className={`${Classes.INPUT_GROUP} ${problem ? Classes.INTENT_DANGER : ''}`}>
        <input
          id={id}
          className={Classes.INPUT}
          type="text"
          inputMode="decimal"
          role="spinbutton"
          autoComplete="off"
          spellCheck={false}
          aria-valuemin={min}
          aria-valuemax={max}
          aria-valuenow={parsed.ok ? parsed.value : value}
          aria-valuetext={unit ? `${text} ${unit}` : text}
          aria-invalid={Boolean(problem)}
          aria-describedby={problem ? helpId : undefined}
          value={text}
          disabled={disabled}
          onFocus={() => {
            focused.current = true;
          }}
          onBlur={() => {
            focused.current = false;
            // A number taken is shown as the field writes it ("2," → "2"); a refused text stays, marked.
            if (parsed.ok && inRange) setText(show(parsed.value));
          }}
          onKeyDown={onKeyDown}
          onChange={(event) => take(event.currentTarget.value)}
        />
        {unit && (
          <span className="mp-number-unit" aria-hidden="true">
            {unit}
          </span>
        )}
      </div>
      {problem && (
        <div id={helpId} className={Classes.FORM_HELPER_TEXT}>
          {problem} {!disabled && t('number.planKeeps', { value: unit ? `${show(value)} ${unit}` : show(value) })}
        </div>
      )}
    </FormGroup>
  );
}
