/**
 * Blueprint's HTMLSelect without its English: Blueprint titles the select's arrow "Open dropdown" whatever the UI
 * language (hard-coded in @blueprintjs/core 6), and screen readers read it out. The arrow is decoration (the
 * select carries its own label): here it has no title and is hidden from them.
 */
import { HTMLSelect, type HTMLSelectProps } from '@blueprintjs/core';
import { forwardRef } from 'react';

export const Select = forwardRef<HTMLSelectElement, HTMLSelectProps>(function Select({ iconProps, ...props }, ref) {
  return <HTMLSelect ref={ref} {...props} iconProps={{ title: '', ...iconProps }} />;
});
