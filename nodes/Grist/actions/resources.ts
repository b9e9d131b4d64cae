/** Every resource of the Grist node, in the order of the Resource selector. */
import { org } from './org';
import type { GristResource, ResourceModule } from './types';

export const resources: Partial<Record<GristResource, ResourceModule>> = {
	org,
};

export const resourceModules: ResourceModule[] = Object.values(resources).filter(
	(m): m is ResourceModule => m !== undefined,
);
