/**
 * The six wizard steps (0–5) and how the plan's server step maps onto them (docs/planning-model.md,
 * the contract's PlanStepName): 0 file processing; 1 exclusion boundaries = server steps 0–1; 2 macula grid =
 * 2–3; 3 brightness = 4–5; 4 final adjustments and sign-off = 6; 5 parameter set = 7–8. Pure: the page asks
 * here which step a session is at, which steps may be opened, what confirming a step again throws away, and
 * why a step is read-only.
 */
import type { Treatment } from '@generated/model/treatment';

export const WIZARD_STEPS = [0, 1, 2, 3, 4, 5] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** Server plan step index (0–8) → wizard step (1–5). */
const BY_SERVER_STEP: readonly WizardStep[] = [1, 1, 2, 2, 3, 3, 4, 5, 5];

/** Server steps that hold the user's confirmation of a wizard step (not the system's proposal). */
export const CONFIRMED_AT: Record<1 | 2 | 3, number> = { 1: 1, 2: 3, 3: 5 };

/** The treatment has no plan to show yet: still processing, or processing failed. */
export function inProcessing(treatment: Pick<Treatment, 'planStatus' | 'error' | 'plan'>): boolean {
  if (treatment.error) return true;
  if (treatment.plan.fovea === null || treatment.plan.scale === null) return true;
  // Literals (typed by the contract's PlanStatus), not its generated object: the planning route then does not load
  // that object's chunk, which the patient list and card share with the status tags (their bundle budgets).
  return (treatment.planStatus === 'file_uploaded' || treatment.planStatus === 'processing') && treatment.plan.stepIndex < 7;
}

/** The wizard step the session is at: where the wizard opens. */
export function currentStep(treatment: Pick<Treatment, 'planStatus' | 'error' | 'plan'>): WizardStep {
  if (inProcessing(treatment)) return 0;
  return BY_SERVER_STEP[treatment.plan.stepIndex] ?? 1;
}

/**
 * The step a link asks for, if it may be opened: any step up to the current one (going back to look or to
 * change), never one ahead. Anything else (absent, not a number, ahead) opens the current step.
 */
export function openedStep(requested: string | null, current: WizardStep): WizardStep {
  if (requested === null || !/^[0-5]$/.test(requested)) return current;
  const step = Number(requested) as WizardStep;
  return step <= current ? step : current;
}

/** What confirming `step` again throws away of the work done after it: the server's reset (plan-steps). */
export type ResetPart = 'grid' | 'brightness';
export function resetsWhenConfirming(step: WizardStep, serverStepIndex: number): ResetPart[] {
  const reset: ResetPart[] = [];
  if (step <= 1 && serverStepIndex >= CONFIRMED_AT[2]) reset.push('grid');
  if (step <= 2 && serverStepIndex >= CONFIRMED_AT[3]) reset.push('brightness');
  return reset;
}

/** Why the plan cannot be changed here, or null when it can. */
export type ReadOnlyReason = 'locked' | 'signed' | 'processing';
export function readOnlyReason(treatment: Pick<Treatment, 'locked' | 'planStatus' | 'error' | 'plan'>): ReadOnlyReason | null {
  if (treatment.locked) return 'locked';
  if (treatment.plan.stepIndex >= 7) return 'signed';
  if (inProcessing(treatment)) return 'processing';
  return null;
}
