import { useTranslation } from 'react-i18next';
import { en } from '@/lib/i18n';

/** The forms' validation texts (`common:validation.*`), shared by every form. */
export type ValidationKey = keyof (typeof en)['common']['validation'];

const isValidationKey = (message: string): message is ValidationKey => Object.hasOwn(en.common.validation, message);

/**
 * Form schemas report a ValidationKey as their message, so the text follows the UI language even after
 * the error was raised; any other message (e.g. a localised field error from the server) is shown as is.
 */
export function useValidationMessage(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return (message) => {
    if (!message) return undefined;
    return isValidationKey(message) ? t(`validation.${message}`) : message;
  };
}
