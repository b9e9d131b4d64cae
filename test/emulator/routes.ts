/**
 * The emulator's route table, one file per section of the reference (shared/reference/grist-api.md,
 * beside the repository). A request runs the first route whose method and pattern match its path (every pattern is anchored at both ends, so the order only groups).
 *
 * | reference section                       | file                     |
 * | --------------------------------------- | ------------------------ |
 * | §2 Orgs                                 | routes-orgs.ts           |
 * | §3 Workspaces (+ create a doc)          | routes-workspaces.ts     |
 * | §4 Docs (metadata, move, access, pin)   | routes-docs.ts           |
 * | §4 Docs: Export XLSX / CSV / TSV        | routes-downloads.ts      |
 * | §3–§4 trash/restore, copy, .grist download, import | routes-lifecycle.ts |
 * | §4 Docs: Other, POST /apply             | routes-apply.ts          |
 * | §5 Records                              | routes-records.ts        |
 * | §6 Deprecated /data                     | routes-data.ts           |
 * | §7 Columns and tables                   | routes-tables-columns.ts |
 * | §8 Attachments                          | routes-attachments.ts    |
 * | §10 GET /api/profile/user               | routes-profile.ts        |
 * | §10 SQL                                 | routes-sql.ts            |
 * | §10 Webhooks (delivery: webhooks.ts)    | routes-webhooks.ts       |
 * | §12.1–12.4 /states, /compare (history)  | history.ts               |
 * | §10 OAuth apps (OAuth server, not /api) | routes-oauth.ts, called by index.ts before the API routes |
 * | §12.3, §12.11 forks, /compare/{doc2}, /replace, snapshots, proposals | routes-forks.ts |
 * | Service accounts (/api/service-accounts)| routes-service-accounts.ts |
 * | Formula timing (/api/docs/{d}/timing)   | routes-timing.ts         |
 *
 * A new section: a `routes-<section>.ts` exporting its `Route[]` (the doc-worker sections build
 * theirs with docworker.ts's `docRoute`/`tableRoute`), listed below and in the table above.
 * Shared by the sections: context.ts (request context, org/workspace/doc lookup, access
 * checks), home.ts and access.ts (home DB: JSON shapes, access listings and deltas),
 * docworker.ts and actions.ts (doc worker: route builders, row and column actions).
 */
import type { Route } from './context';
import { applyRoutes } from './routes-apply';
import { attachmentsRoutes } from './routes-attachments';
import { dataRoutes } from './routes-data';
import { docsRoutes } from './routes-docs';
import { lifecycleRoutes } from './routes-lifecycle';
import { downloadsRoutes } from './routes-downloads';
import { historyRoutes } from './history';
import { orgsRoutes } from './routes-orgs';
import { profileRoutes } from './routes-profile';
import { recordsRoutes } from './routes-records';
import { sqlRoutes } from './routes-sql';
import { tablesColumnsRoutes } from './routes-tables-columns';
import { webhooksRoutes } from './routes-webhooks';
import { workspacesRoutes } from './routes-workspaces';
import { forksRoutes } from './routes-forks';
import { serviceAccountsRoutes } from './routes-service-accounts';
import { timingRoutes } from './routes-timing';

export const ROUTES: Route[] = [
	// home DB
	...orgsRoutes,
	...workspacesRoutes,
	...docsRoutes,
	...lifecycleRoutes,
	...profileRoutes,
	// doc worker
	...tablesColumnsRoutes,
	...recordsRoutes,
	...dataRoutes,
	...attachmentsRoutes,
	...downloadsRoutes,
	...applyRoutes,
	...sqlRoutes,
	...webhooksRoutes,
	...historyRoutes,
	...forksRoutes,
	...serviceAccountsRoutes,
	...timingRoutes,
];
