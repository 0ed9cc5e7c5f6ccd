import { act, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, getByLabel, renderRoutes, type } from '@/testing/render';
import { DateField } from './date-field';
import { DateInput, useDateText } from './date-input';

afterEach(cleanup);

const leave = (input: HTMLInputElement) => act(async () => input.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
const describedBy = (input: HTMLInputElement) =>
  input
    .getAttribute('aria-describedby')!
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);

/** A form's date: every value kept, as react-hook-form's Controller keeps it. */
function FormDate({ initial, error, values }: { initial: string; error?: string; values: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField
        label="Birthday"
        value={value}
        error={error}
        onChange={(next) => {
          values.push(next);
          setValue(next);
        }}
      />
      <button type="button" onClick={() => setValue('1960-01-02')}>
        reset
      </button>
    </>
  );
}

/** A filter's date whose value follows a moment later (a URL), and only when valid. */
function FilterDate({ sent, delay }: { sent: string[]; delay: number }) {
  const [value, setValue] = useState('');
  const date = useDateText({
    value,
    min: '1900-01-01',
    max: '2026-11-21',
    onChange: (next, valid) => {
      if (!valid) return;
      sent.push(next);
      setTimeout(() => setValue(next), delay);
    },
  });
  return (
    <>
      <label htmlFor="from">From</label>
      <DateInput date={date} id="from" invalid={Boolean(date.problem)} />
      <output>{date.problem}</output>
    </>
  );
}

describe('DateField', () => {
  it('shows the form’s date in the UI language, names its format for screen readers, and hands on YYYY-MM-DD', async () => {
    const values: string[] = [];
    const { container, i18n } = await renderRoutes([{ path: '/', element: <FormDate initial="1951-04-23" values={values} /> }], {
      path: '/',
      language: 'de',
    });
    const input = getByLabel(container, 'Birthday');
    expect(input.value).toBe('23.04.1951');
    expect(input.type).toBe('text');
    expect(input.placeholder).toBe('TT.MM.JJJJ');
    expect(describedBy(input)).toEqual(['Datum mit Tag, Monat und Jahr, z. B. 23.04.1951']);

    await type(input, '1.2.1960');
    expect(values.at(-1)).toBe('1960-02-01');
    // Kept as typed while the field has the focus; in its form once left.
    expect(input.value).toBe('1.2.1960');
    await leave(input);
    expect(input.value).toBe('01.02.1960');

    await act(async () => {
      await i18n.changeLanguage('en');
    });
    expect(input.value).toBe('01/02/1960');
    expect(input.placeholder).toBe('DD/MM/YYYY');
  });

  it('hands on what is no date as typed (a schema refuses it), and gives its own reason once left', async () => {
    const values: string[] = [];
    const { container } = await renderRoutes([{ path: '/', element: <FormDate initial="" values={values} /> }], { path: '/' });
    const input = getByLabel(container, 'Birthday');
    await type(input, '31/02/1951');
    expect(values.at(-1)).toBe('31/02/1951');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    await leave(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toEqual(['This date does not exist – please check the day and month', 'Date as day, month and year, e.g. 23/04/1951']);
    expect(input.value).toBe('31/02/1951');
  });

  it('shows the form’s error while the text is a date, and its own reason instead when it is none', async () => {
    const values: string[] = [];
    const { container } = await renderRoutes(
      [{ path: '/', element: <FormDate initial="2999-01-01" error="The birthday cannot be in the future" values={values} /> }],
      { path: '/' },
    );
    const input = getByLabel(container, 'Birthday');
    expect(describedBy(input)[0]).toBe('The birthday cannot be in the future');
    await type(input, '23.04.51');
    expect(describedBy(input)[0]).toBe('Please enter the date as DD/MM/YYYY, e.g. 23/04/1951');
  });

  it('follows a value changed elsewhere (a reset)', async () => {
    const values: string[] = [];
    const { container } = await renderRoutes([{ path: '/', element: <FormDate initial="" values={values} /> }], { path: '/' });
    const input = getByLabel(container, 'Birthday');
    await type(input, 'abc');
    await act(async () => container.querySelector('button')!.click());
    expect(input.value).toBe('02/01/1960');
  });

  it('keeps what is being typed while its own earlier value comes back late', async () => {
    const sent: string[] = [];
    const { container } = await renderRoutes([{ path: '/', element: <FilterDate sent={sent} delay={30} /> }], { path: '/' });
    const input = getByLabel(container, 'From');
    await type(input, '1.1.1960');
    await type(input, '1.1.19601');
    await act(() => new Promise((resolve) => setTimeout(resolve, 60)));
    expect(input.value).toBe('1.1.19601');
    expect(sent).toEqual(['1960-01-01']);
  });

  it('refuses a date outside its range, naming the range, and never hands it on', async () => {
    const sent: string[] = [];
    const { container } = await renderRoutes([{ path: '/', element: <FilterDate sent={sent} delay={0} /> }], { path: '/' });
    const input = getByLabel(container, 'From');
    await type(input, '22/11/2026');
    await leave(input);
    expect(container.querySelector('output')?.textContent).toBe('Please enter a date between 01/01/1900 and 21/11/2026');
    expect(sent).toEqual([]);
    await type(input, '');
    expect(sent).toEqual(['']);
    expect(container.querySelector('output')?.textContent).toBe('');
  });
});
