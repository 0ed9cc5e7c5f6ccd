import { Classes } from '@blueprintjs/core';
import { useId, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { dateRangeProblem, formatDateText, parseDateText } from '@/lib/date-text';

/** The date every example shows. */
const EXAMPLE = '1951-04-23';

export type DateTextOptions = {
  /** YYYY-MM-DD, '' for none, or (in a form) the text of a refused date, which no ISO check accepts. */
  value: string;
  /**
   * Every change: the date as YYYY-MM-DD, '' when emptied, or the text as typed when it is no date; `valid`
   * says whether it is a date within min…max (or empty). A form takes every value (its schema refuses the
   * text); a filter takes only valid ones.
   */
  onChange: (value: string, valid: boolean) => void;
  onBlur?: () => void;
  /** The earliest and latest date taken, YYYY-MM-DD. */
  min?: string;
  max?: string;
  /** The form's error, already translated: the field's own reason replaces it when the text is no date. */
  error?: string;
};

export type DateText = ReturnType<typeof useDateText>;

/**
 * A date field's text in the UI language (src/lib/date-text.ts) and what it means. The text is kept as typed
 * while the field has the focus and shown in the language's form when it is left or the language changes; it
 * follows `value` when that changes elsewhere (a reset, "Clear filters", the back button). `problem` is why the
 * text is refused, from the first time the field is left (or once the form shows an error), else the form's
 * error.
 */
export function useDateText({ value, onChange, onBlur, min, max, error }: DateTextOptions) {
  const { t, i18n } = useTranslation('dates');
  const language = i18n.language;
  const show = (date: string) => formatDateText(date, language);
  const [text, setText] = useState(() => show(value));
  const [seen, setSeen] = useState({ value, language });
  // What this field sent and has not yet come back as `value` (a URL follows a moment later): its own change
  // coming back leaves the text as typed; any other value is shown.
  const [sent, setSent] = useState<string[]>([]);
  const [left, setLeft] = useState(false);
  const read = parseDateText(text);
  if (value !== seen.value || language !== seen.language) {
    setSeen({ value, language });
    const echo = value === seen.value ? -1 : sent.lastIndexOf(value);
    if (echo >= 0) setSent(sent.slice(echo + 1));
    if (value !== seen.value && echo < 0) {
      setText(show(value));
      setSent([]);
      setLeft(false);
    } else if (language !== seen.language && read.ok) setText(show(read.value));
  }

  const range = read.ok ? dateRangeProblem(read.value, min, max) : undefined;
  const bounds = { min: min && show(min), max: max && show(max) };
  const own = !read.ok
    ? read.problem === 'empty'
      ? undefined
      : t(`errors.${read.problem}`, { pattern: t('pattern'), example: show(EXAMPLE) })
    : range && t(`errors.${min && max ? 'between' : range === 'tooEarly' ? 'from' : 'until'}`, bounds);

  return {
    text,
    problem: own && (left || error) ? own : error,
    placeholder: t('pattern'),
    description: t('description', { example: show(EXAMPLE) }),
    change(next: string) {
      const date = parseDateText(next);
      const emitted = date.ok ? date.value : next.trim();
      setText(next);
      setSent((values) => [...values, emitted].slice(-20));
      onChange(emitted, date.ok ? !dateRangeProblem(date.value, min, max) : date.problem === 'empty');
    },
    /** Empties the field (a "Clear filters" that the value may not show: a refused text never became one). */
    clear() {
      setText('');
      setSent([]);
      setLeft(false);
    },
    blur() {
      if (read.ok) setText(show(read.value));
      setLeft(true);
      onBlur?.();
    },
  };
}

type DateInputProps = {
  date: DateText;
  id: string;
  invalid?: boolean;
  /** Further description (the id of an error shown elsewhere), read before the format. */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  large?: boolean;
};

/** The text input of a date: the expected form as placeholder and, for screen readers, as its description. */
export function DateInput({ date, id, invalid, describedBy, inputRef, large }: DateInputProps) {
  const formatId = useId();
  return (
    <>
      <input
        id={id}
        ref={inputRef}
        type="text"
        autoComplete="off"
        spellCheck={false}
        maxLength={20}
        className={`${Classes.INPUT} mp-date-input${large ? ` ${Classes.LARGE}` : ''}${invalid ? ` ${Classes.INTENT_DANGER}` : ''}`}
        placeholder={date.placeholder}
        value={date.text}
        onChange={(event) => date.change(event.currentTarget.value)}
        onBlur={date.blur}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy ? `${describedBy} ${formatId}` : formatId}
      />
      <span id={formatId} hidden>
        {date.description}
      </span>
    </>
  );
}
