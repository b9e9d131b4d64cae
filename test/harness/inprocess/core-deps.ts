/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The `@n8n/*` packages n8n-core itself runs with. `@n8n/node-cli` (a devDependency) pulls in older
 * copies of `@n8n/di` / `@n8n/config` / `@n8n/backend-common` that npm hoists to the top level, so
 * a plain `import` would register services in another DI container than the one n8n-core reads.
 * Resolving them from n8n-core's own folder gives exactly the copies n8n-core uses.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const coreRequire = createRequire(
	path.join(path.dirname(require.resolve('n8n-core/package.json')), 'index.js'),
);

export const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');
export const { InstanceSettingsConfig } = coreRequire(
	'@n8n/config',
) as typeof import('@n8n/config');
export const { Logger } = coreRequire(
	'@n8n/backend-common',
) as typeof import('@n8n/backend-common');
