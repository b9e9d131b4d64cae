/** Every resource of the Grist node, in the order of the Resource selector. */
import { attachment } from './attachment';
import { org } from './org';
import type { GristResource, ResourceModule } from './types';

export const resources: Partial<Record<GristResource, ResourceModule>> = {
	org,
	attachment,
};

export const resourceModules: ResourceModule[] = Object.values(resources).filter(
	(m): m is ResourceModule => m !== undefined,
);
