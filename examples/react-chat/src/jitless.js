// Imported first, before the AI SDK: zod (its schemas) probes for eval with
// `new Function` as it builds object schemas, which a CSP without
// 'unsafe-eval' reports as a violation (and Trusted Types blocks). Jitless
// parsing skips the probe; it has to be set before any schema is built.
import { config } from 'zod';

config({ jitless: true });
