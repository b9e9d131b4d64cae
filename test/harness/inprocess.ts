/**
 * In-process n8n harness (test level b): runs our real node classes with the real, pinned
 * `n8n-core@2.41.1` / `n8n-workflow@2.41.0`, in this Node process, against whatever HTTP server
 * the test points the credential at (a loopback server or the Grist emulator).
 *
 * Usage (jest):
 * ```ts
 * import { runNode, loadOptions, testCredential, createPoller } from '../harness/inprocess';
 * const { items, error } = await runNode({
 *   node: new Grist(),
 *   parameters: { resource: 'record', operation: 'getAll', docId: '={{ $json.doc }}' },
 *   credentials: { apiKey: 'k', url: `http://127.0.0.1:${port}` },
 *   input: [{ json: { doc: 'abc' } }],
 * });
 * ```
 * - `runNode` builds a two-node workflow (`Start` → the node, named after its `defaults.name`,
 *   typed `n8n-nodes-grist.<name>` as after a real install) and runs it with `WorkflowExecute`
 *   (mode `manual`, settings `{ executionOrder: 'v1' }`). Parameters get their defaults and are
 *   checked for issues (missing required parameters fail the run like in n8n), expressions are
 *   resolved by n8n-workflow, `continueOnFail` sets `onError: 'continueRegularOutput'` like the
 *   editor's "On Error → Continue", paired items and binary data go through n8n-core.
 * - `runWorkflow` runs any workflow JSON (nodes typed by the keys of `nodeTypes`).
 * - `loadOptions` calls `methods.listSearch|loadOptions|resourceMapping[method]` with a real
 *   `LoadOptionsContext`, as n8n's DynamicNodeParametersService does (`Temp-Node` workflow,
 *   `currentNodeParameters` = the raw parameters).
 * - `testCredential` does what n8n's CredentialsTester does for a credential with a `test`
 *   request: defaults + expressions of the data, then a `RoutingNode` request through
 *   `httpRequestWithAuthentication` (so `authenticate` applies), then the `rules`.
 * - `createPoller` models an active workflow with a polling trigger: a `PollContext` whose
 *   trigger-mode polls run through n8n-core's `PollTriggerExecutor` and keep static data in
 *   memory across polls. Static data is "saved" exactly when n8n 2.41 (default settings: no
 *   durable poll cursors) saves it: when a poll emits (the trigger context's emit), and once
 *   after a successful activation, i.e. right after the activation poll even when it emitted
 *   nothing (active-workflow-manager `add` / trigger activator `activateInternal`). A poll that
 *   returns null or fails saves nothing. A failed activation poll fails the activation: n8n
 *   drops the in-memory workflow and the next attempt activates again from the saved copy.
 *   `restart()` re-activates (mode `init`) from the saved copy. Manual polls run through
 *   `WorkflowExecute` (n8n's "Fetch test event") on a copy of the saved static data, which is
 *   then discarded.
 *
 * HTTP: requests go through n8n's real `OutboundHttp` (axios, proxies from the environment, SSRF
 * protection off unless `N8N_SSRF_PROTECTION_ENABLED` is set, as in n8n). Expressions use the
 * `legacy` engine: n8n 2.41's default `vm` engine needs the native `isolated-vm`, not built here.
 *
 * n8n-core internals this depends on (they change between versions; we pin exactly): the DI
 * services in ./inprocess/runtime.ts (`InstanceSettingsConfig`, `Logger`, `BinaryDataConfig`,
 * `BinaryDataService`), `WorkflowExecute` + `ExecutionLifecycleHooks`, `LoadOptionsContext`,
 * `PollContext` + `PollTriggerExecutor`, `ExecuteContext` + `RoutingNode` (credential test), the
 * loader's `commonPollingParameters` / `validateNodeDescription` (deep imports from
 * `n8n-core/dist/nodes-loader/`), the abstract `ICredentialsHelper` of n8n-workflow, and the
 * `IWorkflowExecuteAdditionalData` shape (./inprocess/additional-data.ts).
 *
 * Its parts, in ./inprocess/: `session.ts` (credential types and the test's credentials),
 * `workflow-run.ts` (WorkflowExecute), `run-node.ts`, `load-options.ts`, `credential-test.ts`,
 * `poller.ts`, `webhook.ts` (the instant trigger's webhook lifecycle and deliveries), and the n8n
 * pieces they stand on (`runtime.ts`, `additional-data.ts`, `credentials.ts`, `node-types.ts`,
 * `oauth2.ts`, `core-deps.ts`).
 */
export { START_NODE_NAME, START_NODE_TYPE, typeNameOf } from './inprocess/node-types';
export type { AnyNodeType } from './inprocess/node-types';
export { ensureRuntime } from './inprocess/runtime';
export type { LogEntry } from './inprocess/runtime';
export type { CredentialData, CredentialsByType } from './inprocess/session';
export {
	runWorkflow,
	runWorkflowDetailed,
	type RunWorkflowOptions,
	type WorkflowJson,
	type WorkflowRunDetails,
} from './inprocess/workflow-run';
export {
	readBinary,
	runNode,
	type NodeRunError,
	type RunNodeOptions,
	type RunNodeResult,
} from './inprocess/run-node';
export {
	loadOptions,
	type LoadOptionsKind,
	type LoadOptionsOptions,
} from './inprocess/load-options';
export {
	testCredential,
	type CredentialTestResult,
	type TestCredentialOptions,
} from './inprocess/credential-test';
export { createPoller, type PollMode, type Poller, type PollerOptions } from './inprocess/poller';
