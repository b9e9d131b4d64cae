/** Every resource of the Grist node, in the order of the Resource selector. */
import { attachment } from './attachment';
import { column } from './column';
import { columnar } from './columnar';
import { document } from './document';
import { org } from './org';
import { record } from './record';
import { sql } from './sql';
import { table } from './table';
import type { GristResource, ResourceModule } from './types';
import { webhook } from './webhook';
import { workspace } from './workspace';

export const resources: Partial<Record<GristResource, ResourceModule>> = {
	org,
	workspace,
	document,
	table,
	record,
	column,
	sql,
	columnar,
	attachment,
	webhook,
};

export const resourceModules: ResourceModule[] = Object.values(resources).filter(
	(m): m is ResourceModule => m !== undefined,
);
