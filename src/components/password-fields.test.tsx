import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, getByLabel, hintState, renderRoutes, type } from '@/testing/render';
import { NewPasswordFields, PasswordHints } from './password-fields';

afterEach(cleanup);

function Form({ error }: { error?: string }) {
  const form = useForm({ defaultValues: { password: '', passwordConfirmation: '' } });
  if (error && !form.formState.errors.password) form.setError('password', { type: 'server', message: error });
  return <NewPasswordFields form={form} strength="standard" />;
}

describe('PasswordHints', () => {
  it('ticks nothing before anything is typed', async () => {
    const { container } = await renderRoutes([{ path: '/', element: <PasswordHints id="h" password="" strength="standard" /> }], {
      path: '/',
    });
    const state = hintState(container);
    expect(Object.keys(state)).toContain('allowed_characters');
    expect(Object.values(state).every((met) => met === 'false')).toBe(true);
    expect(container.querySelectorAll('.mp-hint-met')).toHaveLength(0);
  });

  it('ticks what the typed password meets', async () => {
    const { container } = await renderRoutes([{ path: '/', element: <Form /> }], { path: '/' });
    await type(getByLabel(container, 'New password'), 'abc');
    expect(hintState(container)).toMatchObject({ small: 'true', capital: 'false', allowed_characters: 'true' });
  });
});

describe('NewPasswordFields', () => {
  it("shows the field's error right under the field, before the hints", async () => {
    const { container } = await renderRoutes([{ path: '/', element: <Form error="Please enter a valid password" /> }], {
      path: '/',
    });
    const input = getByLabel(container, 'New password');
    const error = container.ownerDocument.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]);
    expect(error?.textContent).toBe('Please enter a valid password');
    const hints = container.querySelector('.mp-password-hints')!;
    // The error follows the input and precedes the hints in the document (and on screen).
    expect(input.compareDocumentPosition(error!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(error!.compareDocumentPosition(hints) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
