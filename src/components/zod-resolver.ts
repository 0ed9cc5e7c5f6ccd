import { zodResolver } from '@hookform/resolvers/zod';
import { config } from 'zod/v4/core';

// The server's Content-Security-Policy forbids eval: zod must not probe for it (each probe is a CSP violation
// in the console) and validates without compiled functions instead. Set here, where every form's zod
// validation comes from, so that it holds before the first parse and zod stays out of the entry chunk.
config({ jitless: true });

/** react-hook-form's zod resolver, for every form (import it from here, not from @hookform/resolvers). */
export { zodResolver };
