import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, getByLabel, renderRoutes, type, waitFor } from '@/testing/render';
import { NewPasswordFields } from './password-fields';
import type { PasswordOwner } from './password-strength-meter';

afterEach(cleanup);

function Form({ owner }: { owner?: PasswordOwner }) {
  const form = useForm({ defaultValues: { password: '', passwordConfirmation: '' } });
  return <NewPasswordFields form={form} strength="standard" owner={owner} />;
}

async function render(language: 'en' | 'de', owner?: PasswordOwner) {
  const { container } = await renderRoutes([{ path: '/', element: <Form owner={owner} /> }], { path: '/', language });
  const input = getByLabel(container, language === 'de' ? 'Neues Passwort' : 'New password');
  const meter = container.querySelector<HTMLElement>('.mp-password-strength')!;
  const verdict = meter.querySelector<HTMLElement>('[aria-live="polite"]')!;
  return { input, meter, verdict };
}

describe('the strength meter', () => {
  it('says nothing before anything is typed, and is part of the field’s description', async () => {
    const { input, meter, verdict } = await render('en');
    expect(verdict.textContent).toBe('');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(meter.id);
  });

  it('tells a breached password in German, with zxcvbn’s German feedback, though the rules are met', async () => {
    const { input, meter, verdict } = await render('de');
    await type(input, 'Thunder1');
    await waitFor(() => expect(verdict.textContent).toContain('Datenlecks'));
    expect(verdict.textContent).toBe(
      'Stärke: schwach. Dieses Passwort steht auf einer Liste von Passwörtern aus Datenlecks. Bitte wählen Sie ein anderes.',
    );
    expect(meter.dataset.acceptable).toBe('false');
    await waitFor(() => expect(meter.querySelector('.mp-strength-feedback')?.textContent).toContain('Dies ist ein oft verwendetes Passwort.'));
  });

  it('weighs the owner’s name, in English, and praises a strong password without feedback', async () => {
    const { input, meter, verdict } = await render('en', { email: 'o.zwirbelmeier@clinic.example', firstName: 'Ortrud', lastName: 'Zwirbelmeier' });
    await type(input, 'Zwirbelmeier26');
    await waitFor(() => expect(verdict.textContent).toContain("Too easy to guess for your clinic's password rules."));
    await waitFor(() => expect(meter.textContent).toContain('Your name and e-mail address are easy to guess.'));
    await type(input, 'Netzhaut-Laser-41');
    await waitFor(() => expect(verdict.textContent).toBe("Strength: very strong. Strong enough for your clinic's password rules."));
    expect(meter.querySelector('.mp-strength-feedback')).toBeNull();
    expect(meter.querySelectorAll('.mp-strength-filled')).toHaveLength(5);
  });
});
