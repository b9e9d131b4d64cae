/**
 * `loadOptions`: a node's listSearch / loadOptions / resourceMapping method called with a real
 * `LoadOptionsContext`, as n8n's DynamicNodeParametersService does (`Temp-Node` workflow,
 * `currentNodeParameters` = the raw parameters with their defaults).
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError, Workflow, deepCopy } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { HarnessNodeTypes, latestVersionOf, typeNameOf, type AnyNodeType } from './node-types';
import { ensureRuntime } from './runtime';
import {
	attachCredentials,
	gristSession,
	type CredentialData,
	type CredentialsByType,
} from './session';

export type LoadOptionsKind = 'listSearch' | 'loadOptions' | 'resourceMapping';

export interface LoadOptionsOptions {
	node: AnyNodeType;
	/** The node's current parameters, as the editor sends them. */
	parameters: INodeParameters;
	credentials?: CredentialData;
	/** Credentials of other types, by type name (e.g. `gristRecordsOAuth2Api`). */
	otherCredentials?: CredentialsByType;
	method: string;
	kind: LoadOptionsKind;
	filter?: string;
	paginationToken?: string;
	typeVersion?: number;
	/** Path of the parameter being edited (default: found from the method in the description). */
	path?: string;
}

function findParameterPath(
	properties: INodeProperties[],
	method: string,
	kind: LoadOptionsKind,
): string | undefined {
	for (const property of properties) {
		const options = property.typeOptions;
		if (kind === 'loadOptions' && options?.loadOptionsMethod === method) return property.name;
		if (kind === 'resourceMapping' && options?.resourceMapper?.resourceMapperMethod === method) {
			return property.name;
		}
		if (kind === 'listSearch') {
			const modes = property.modes ?? [];
			if (modes.some((mode) => mode.typeOptions?.searchListMethod === method)) return property.name;
		}
	}
	return undefined;
}

/** The LoadOptionsContext of a `Temp-Node` with the given parameters and credentials. */
function loadOptionsContext(opts: LoadOptionsOptions, nodeTypes: HarnessNodeTypes) {
	const typeName = typeNameOf(opts.node);
	const typeVersion = opts.typeVersion ?? latestVersionOf(opts.node);
	const nodeType = nodeTypes.getByNameAndVersion(typeName, typeVersion);
	const session = gristSession(opts.credentials, opts.otherCredentials);
	// The editor sends the node's parameters with their defaults (e.g. `authentication`, which
	// decides which credential the node may use).
	const currentNodeParameters =
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			deepCopy(opts.parameters),
			true,
			false,
			null,
			null,
		) ?? deepCopy(opts.parameters);
	const node: INode = {
		parameters: deepCopy(opts.parameters),
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: typeName,
		typeVersion,
		position: [0, 0],
	};
	attachCredentials(node, nodeTypes, session);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData({
		credentialsHelper: session.credentialsHelper,
		currentNodeParameters,
	});
	const parameterName = findParameterPath(nodeType.description.properties, opts.method, opts.kind);
	const path = opts.path ?? `parameters.${parameterName ?? opts.method}`;
	return new LoadOptionsContext(
		workflow,
		workflow.getNode('Temp-Node') ?? node,
		additionalData,
		path,
	);
}

/** Calls a node's listSearch / loadOptions / resourceMapping method with a real LoadOptionsContext. */
export async function loadOptions(opts: LoadOptionsOptions): Promise<unknown> {
	await ensureRuntime();
	const typeName = typeNameOf(opts.node);
	const nodeTypes = new HarnessNodeTypes({ [typeName]: opts.node });
	const typeVersion = opts.typeVersion ?? latestVersionOf(opts.node);
	const nodeType = nodeTypes.getByNameAndVersion(typeName, typeVersion);
	const method = nodeType.methods?.[opts.kind]?.[opts.method];
	if (typeof method !== 'function') {
		throw new UnexpectedError(
			`Node type does not have method defined: ${opts.kind}.${opts.method}`,
		);
	}
	const context = loadOptionsContext(opts, nodeTypes);
	if (opts.kind === 'listSearch') {
		const listSearch = method as (
			this: LoadOptionsContext,
			filter?: string,
			paginationToken?: string,
		) => Promise<unknown>;
		return await listSearch.call(context, opts.filter, opts.paginationToken);
	}
	const loader = method as (this: LoadOptionsContext) => Promise<unknown>;
	return await loader.call(context);
}
