import type { ReactNode } from 'react';
import type { FundusImage } from '@generated/model/fundusImage';
import type { Role } from '@generated/model/role';
import type { Treatment } from '@generated/model/treatment';
import type { ResetPart } from './wizard';

/** What the page gives every step of the wizard. */
export interface StepProps {
  treatment: Treatment;
  /** The display image the plan's pixels refer to. */
  image: FundusImage;
  /** False for a locked or signed-off plan: the step shows, nothing changes. */
  editable: boolean;
  /** What confirming this step again throws away (it was confirmed before and later steps too). */
  resets: ResetPart[];
  role: Role;
  /** Notices of the page shown at the top of the step's panel. */
  children?: ReactNode;
}
