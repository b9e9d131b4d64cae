/**
 * Compatibility level: the packed package in a real n8n 1.123.x (the 1.x line, still patched) on
 * Node 22, from its own folder of the runtime cache (scripts/ensure-n8n.sh with
 * N8N_VERSION/NODE_MAJOR), through the e2e harness. n8n-2.test.ts runs the same set on 2.x.
 */
import { RUNTIMES } from '../harness/e2e';
import { smokeSuite } from './smoke';

smokeSuite(RUNTIMES.lts1);
