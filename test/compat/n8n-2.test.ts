/**
 * Compatibility level: the smoke set of n8n-1.test.ts on the 2.x line (n8n 2.41.1 on Node 24),
 * so both lines are held to the same answers.
 */
import { RUNTIMES } from '../harness/e2e';
import { smokeSuite } from './smoke';

smokeSuite(RUNTIMES.current);
