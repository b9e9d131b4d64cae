/**
 * Real-n8n harness (test level c): the built package, packed with `npm pack` and installed as a
 * community package into a fresh n8n 2.41.1 (Node 24, from the cache of scripts/ensure-n8n.sh),
 * driven through n8n's REST and public APIs. Node types are `n8n-nodes-grist.grist` and
 * `n8n-nodes-grist.gristTrigger`, exactly as after a real install.
 *
 * Usage (one n8n server per test file; start ≈ 6–10 s, each workflow run ≈ 0.2–0.5 s):
 * ```ts
 * import { startN8n, manualWorkflow, gristNode, START_TIMEOUT, type N8n } from '../harness/e2e';
 * import { startEmulator } from '../emulator';
 *
 * let n8n: N8n;
 * beforeAll(async () => { n8n = await startN8n(); }, START_TIMEOUT);
 * afterAll(async () => { await n8n?.stop(); });
 *
 * test('lists orgs', async () => {
 *   const cred = await n8n.createCredential({ name: 'Grist', type: 'gristRecordsApi',
 *     data: { apiKey: 'k', url: emulator.url } });          // → { id, name }
 *   const run = await n8n.runWorkflow(manualWorkflow([
 *     gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred),
 *   ]));
 *   expect(run.status).toBe('success');
 *   expect(run.output('Grist')).toEqual([...]);          // json of each item of output 0
 * });
 * ```
 * - `startN8n({ line?, env?, echo? })`: `line` picks the n8n line, `RUNTIMES.current` (default,
 *   2.41.1 on Node 24) or `RUNTIMES.lts1` (1.123.x on Node 22: its owner is set up through
 *   `/rest/owner/setup`, credentials are created and tested through the editor's REST routes,
 *   the rest is the same). `env` is added to n8n's environment (e.g.
 *   `{ HTTP_PROXY: emulator.url, NO_PROXY: '127.0.0.1,localhost' }` to route
 *   `http://<team>.getgrist.com` to the emulator). n8n never inherits proxy, `N8N_*`, `DB_*`,
 *   `NODE_ENV` or npm variables from the test process; by default `NO_PROXY=127.0.0.1,localhost`.
 *   `echo: true` (or env `E2E_N8N_ECHO=1`) copies n8n's log to stderr. The first instance saves
 *   its freshly migrated database as a template in the cache; later instances start from a copy
 *   (≈ 6 s instead of ≈ 10 s; all use one random test key per cache, `e2eEncryptionKey()`; an unusable template
 *   is dropped and the start retried from scratch). Everything listens on
 *   127.0.0.1 on random free ports; telemetry, version checks, templates and the MCP registry are
 *   off; the user folder is a fresh temp dir, removed by `stop()`. The process group is killed by
 *   `stop()`, on jest's exit, and by a watchdog if jest dies.
 * - `runWorkflow(workflowJsonOrId, { triggerNode?, timeoutMs? })` saves the workflow (if JSON),
 *   runs it like the editor's "Execute workflow" (`POST /rest/workflows/<id>/run`, from the Manual
 *   Trigger, or from `triggerNode` e.g. `'Grist Trigger'` for one manual poll), waits for the
 *   saved execution and returns a `RunResult`:
 *   `status` ('success' | 'error' | …), `error` (the workflow's error: `{ message, description,
 *   httpCode, node, name }`), `output(node, outputIndex = 0, run = 0)` → json items,
 *   `items(node, …)` → full items (json, binary, pairedItem), `nodeError(node)`,
 *   `binary(node, itemIndex, property = 'data')` → Promise<Buffer>, `raw` (the parsed run data).
 * - Polling for real: `activate(id)` / `deactivate(id)` (public API), then `executions(id)`
 *   (newest first, each a `RunResult`) and `workflowStaticData(id)`; `waitForExecutions(id, n)`.
 * - `restart()`: n8n stops and starts again on the same database (active workflows come back).
 * - `createCredential`, `testCredential(id)` → `{ status: 'OK' | 'Error', message }`,
 *   `createWorkflow(json)` → id, `nodeTypes()`, `credentialTypes()`, `logs()` (n8n's output so
 *   far), `rest(method, path, body)` and `api(method, path, body)` for anything else.
 *
 * Its parts, in ./e2e/: `runtime.ts` (the n8n runtime cache, encryption key, template database),
 * `process.ts` (user folder, environment, start and readiness of one n8n process), `owner.ts`
 * (owner set-up, login, API key), `client.ts` (REST and public API client), `results.ts` (an
 * execution's `RunResult`), `executions.ts` (run a workflow, await executions), `n8n.ts`
 * (`startN8n`: the `N8n` object), `workflows.ts` (workflow JSON builders), `fixtures.ts`
 * (`useN8nDemoSite`, `useN8nTeamDoc`) and `queue.ts` (queue mode).
 */
export * from './e2e/workflows';
export { N8N_VERSION, RUNTIMES } from './e2e/runtime';
export type { RuntimeLine } from './e2e/runtime';
export { OWNER_EMAIL, OWNER_PASSWORD } from './e2e/owner';
export type { BinaryRef, NodeErrorInfo, RunItem, RunResult } from './e2e/results';
export type { StartN8nOptions } from './e2e/process';
export { startN8n, type N8n } from './e2e/n8n';
export {
	START_TIMEOUT,
	useN8nDemoSite,
	useN8nTeamDoc,
	type N8nDemoSiteFixture,
	type N8nFixture,
	type N8nFixtureOptions,
	type N8nTeamDocFixture,
} from './e2e/fixtures';
