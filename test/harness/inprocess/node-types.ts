/**
 * Node types for the in-process harness: an `INodeTypes` registry that prepares each node the way
 * n8n-core's `DirectoryLoader` does when it loads a community package (polling nodes get the
 * `pollTimes` parameter, `validateNodeDescription` runs), without mutating the caller's object,
 * plus the harness's start node.
 */
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import { validateNodeDescription } from 'n8n-core/dist/nodes-loader/validate-node-description';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

/** Package prefix n8n gives our nodes when the package is installed (`n8n-nodes-grist.grist`). */
export const PACKAGE_NAME = 'n8n-nodes-grist';

export type AnyNodeType = INodeType | IVersionedNodeType;

export function isVersioned(nodeType: AnyNodeType): nodeType is IVersionedNodeType {
	return 'nodeVersions' in nodeType;
}

/** The workflow type name of a node class instance, as after a real install of this package. */
export function typeNameOf(nodeType: AnyNodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** Latest version of a node type (what the editor uses for a newly added node). */
export function latestVersionOf(nodeType: AnyNodeType): number {
	if (isVersioned(nodeType)) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/**
 * A copy of one (non-versioned) node type with n8n's loader adjustments. The copy keeps the
 * original as its prototype, so `execute`/`poll`/`methods` and n8n's `Node` class tag still work.
 */
function prepareSingle(nodeType: INodeType): INodeType {
	const description = { ...nodeType.description, properties: [...nodeType.description.properties] };
	if (description.polling && !description.properties.some((p) => p.name === 'pollTimes')) {
		description.properties.unshift(...commonPollingParameters);
	}
	if (nodeType.methods?.loadOptions) {
		description.__loadOptionsMethods = Object.keys(nodeType.methods.loadOptions);
	}
	validateNodeDescription(description);
	const prepared = Object.create(nodeType) as INodeType;
	Object.defineProperty(prepared, 'description', { value: description, enumerable: true });
	return prepared;
}

export function prepareNodeType(nodeType: AnyNodeType): AnyNodeType {
	if (!isVersioned(nodeType)) return prepareSingle(nodeType);
	const nodeVersions: Record<number, INodeType> = {};
	for (const [version, versionNode] of Object.entries(nodeType.nodeVersions)) {
		nodeVersions[Number(version)] = prepareSingle(versionNode);
	}
	const prepared = Object.create(nodeType) as IVersionedNodeType;
	Object.defineProperty(prepared, 'nodeVersions', { value: nodeVersions, enumerable: true });
	Object.defineProperty(prepared, 'getNodeType', {
		value: (version?: number) => nodeVersions[version ?? nodeType.currentVersion],
	});
	return prepared;
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, AnyNodeType>();

	constructor(types: Record<string, AnyNodeType> = {}) {
		for (const [name, type] of Object.entries(types)) this.add(name, type);
	}

	add(typeName: string, nodeType: AnyNodeType): void {
		this.types.set(typeName, prepareNodeType(nodeType));
	}

	has(typeName: string): boolean {
		return this.types.has(typeName);
	}

	getByName(nodeType: string): AnyNodeType {
		const type = this.types.get(nodeType);
		if (!type)
			throw new UnexpectedError(`Unknown node type "${nodeType}" (register it with the harness)`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Type name and node name of the start node `runNode` puts in front of the node under test. */
export const START_NODE_TYPE = 'n8n-harness.start';
export const START_NODE_NAME = 'Start';

/**
 * The start node: passes the harness's input items on, like a trigger that emitted them
 * (n8n starts trigger-fired executions with the emitted items on the execution stack).
 */
export class HarnessStart implements INodeType {
	description = {
		displayName: 'Start',
		name: START_NODE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Feeds the harness input items into the workflow',
		defaults: { name: START_NODE_NAME },
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
