/**
 * What a saved node holds that its node version does not read. n8n builds each node's parameters
 * from the node's description before `execute`, `poll`, `webhook` or the webhook lifecycle run
 * (`NodeHelpers.getNodeParameters` in the Workflow constructor): a saved name the description
 * does not declare is dropped without a word, and so is a value whose field is not shown; an
 * options value that is none of the field's options is kept as saved. So the node can see:
 *
 * - a retired parameter — a name an earlier shape of the node had — only if the description
 *   still declares it: `retiredProperty` declares it as a hidden field (the editor never shows
 *   it, n8n keeps its saved value and never saves its default), where it was;
 * - an options value that is not one of the field's options (e.g. a choice that was renamed);
 * - a `typeVersion` the node does not have (n8n runs such a node with the one description).
 *
 * `checkSavedParameters` refuses all three, naming them and what to do, before anything is sent.
 */
import type {
	IDisplayOptions,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

/** A parameter an earlier shape of the node had, and what replaces it. */
export interface RetiredParameter {
	name: string;
	/** The collection it was an option of (e.g. `options`); none: a top-level parameter. */
	in?: string;
	/** Where it was (`show` of its display conditions): a name in use elsewhere is only read there. */
	show?: IDisplayOptions['show'];
	/** What the node reads instead, as the user sets it again. */
	instead: string;
}

/** The hidden field that keeps a retired parameter's saved value where the node can see it. */
export function retiredProperty(retired: RetiredParameter): INodeProperties {
	return {
		displayName: `Retired: ${retired.name}`,
		name: retired.name,
		type: 'hidden',
		default: '',
		// where it was; a collection's option is shown only while it holds a value, so that the
		// editor never offers it in Add Option
		...(retired.show
			? { displayOptions: { show: retired.show } }
			: retired.in
				? { displayOptions: { show: { [retired.name]: [{ _cnd: { exists: true } }] } } }
				: {}),
	};
}

/** A value that is an object of parameters (a collection's, a fixed collection's entry). */
const asParameters = (v: unknown): INodeParameters | undefined =>
	typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as INodeParameters) : undefined;

const isExpression = (v: unknown) => typeof v === 'string' && v.startsWith('=');

const held = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The retired parameters the node holds where they were, as `name` or `collection.name`. */
function retiredValues(
	parameters: INodeParameters,
	retired: RetiredParameter[],
	node: INode,
	description: INodeTypeDescription,
): string[] {
	const found: string[] = [];
	for (const r of retired) {
		const where = asParameters(r.in ? parameters[r.in] : parameters);
		if (!where || !held(where[r.name])) continue;
		if (!NodeHelpers.displayParameter(where, retiredProperty(r), node, description, parameters))
			continue;
		found.push(r.in ? `${r.in}.${r.name}` : r.name);
	}
	return found;
}

/**
 * A field's fixed options, for the fields that can hold nothing else: those that take no
 * expression (Resource, Operation, Filter, Trigger On…). A field that takes expressions can hold
 * any value at run time, and the operation that reads it checks it with its own message. None
 * for lists loaded from Grist.
 */
function fixedOptions(p: INodeProperties): INodePropertyOptions[] | undefined {
	if (p.type !== 'options' && p.type !== 'multiOptions') return undefined;
	if (!p.noDataExpression) return undefined;
	if (p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions) return undefined;
	return (p.options ?? []) as INodePropertyOptions[];
}

/** Each shown options field whose value is none of its options, as a sentence. */
function unknownOptionValues(
	properties: INodeProperties[],
	values: INodeParameters,
	node: INode,
	description: INodeTypeDescription,
	root: INodeParameters,
	path: string,
): string[] {
	const problems: string[] = [];
	for (const p of properties) {
		const value = values[p.name];
		if (value === undefined) continue;
		if (!NodeHelpers.displayParameter(values, p, node, description, root)) continue;
		const options = fixedOptions(p);
		// a field left at its default holds what the description itself says
		if (options && value !== p.default) {
			const allowed = options.map((o) => o.value as NodeParameterValueType);
			const given = p.type === 'multiOptions' && Array.isArray(value) ? value : [value];
			for (const v of given) {
				if (isExpression(v) || allowed.includes(v as NodeParameterValueType)) continue;
				problems.push(
					`${p.displayName} (${path}${p.name}) is ${JSON.stringify(v)}, which is not one of its options (${options.map((o) => o.name).join(', ')})`,
				);
			}
		}
		const inner = asParameters(value);
		if (p.type === 'collection' && inner) {
			problems.push(
				...unknownOptionValues(
					p.options as INodeProperties[],
					inner,
					node,
					description,
					root,
					`${path}${p.name}.`,
				),
			);
		}
		if (p.type === 'fixedCollection' && inner) {
			for (const group of p.options as INodePropertyCollection[]) {
				const entries = inner[group.name];
				const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
				for (const entry of list.map(asParameters)) {
					if (!entry) continue;
					problems.push(
						...unknownOptionValues(
							group.values,
							entry,
							node,
							description,
							root,
							`${path}${p.name}.${group.name}.`,
						),
					);
				}
			}
		}
	}
	return problems;
}

/** The versions a description declares. */
export function versionsOf(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

/**
 * What the saved node holds that its version does not read, as one message and what to do; none
 * when it holds nothing of the kind.
 */
export function savedParameterProblem(
	node: INode,
	description: INodeTypeDescription,
	retired: RetiredParameter[],
): { message: string; description: string } | undefined {
	const versions = versionsOf(description);
	if (!versions.includes(node.typeVersion)) {
		return {
			message: `This node is saved as version ${node.typeVersion} of ${description.displayName}, which has no such version (it has ${versions.join(', ')})`,
			description: `Add a new ${description.displayName} node, set it up as this one, and delete this one.`,
		};
	}
	const parameters = node.parameters;
	const names = retiredValues(parameters, retired, node, description);
	const options = unknownOptionValues(
		description.properties,
		parameters,
		node,
		description,
		parameters,
		'',
	);
	if (names.length === 0 && options.length === 0) return undefined;
	const said: string[] = [];
	if (names.length > 0) {
		said.push(
			`it holds ${names.join(', ')}, which this version of the node no longer reads (left from an earlier shape of the node)`,
		);
	}
	said.push(...options);
	const todo = retired
		.filter((r) => names.includes(r.in ? `${r.in}.${r.name}` : r.name))
		.map((r) => `${r.in ? `${r.in}.${r.name}` : r.name}: ${r.instead}`);
	return {
		message: `This node was saved in a shape its version does not run: ${said.join('; ')}`,
		description: [
			'Running it would ignore what the saved workflow says, so it does not run.',
			...todo,
			options.length > 0 ? 'Pick one of the options of each field named.' : '',
			names.length > 0
				? `Then add a new ${description.displayName} node set up the same way and delete this one (the old values stay in a node until it is replaced).`
				: '',
		]
			.filter(Boolean)
			.join(' '),
	};
}

/** Refuses a saved node that holds what its version does not read (see the top of this file). */
export function checkSavedParameters(
	ctx: { getNode(): INode },
	description: INodeTypeDescription,
	retired: RetiredParameter[],
): void {
	const node = ctx.getNode();
	const problem = savedParameterProblem(node, description, retired);
	if (problem)
		throw new NodeOperationError(node, problem.message, { description: problem.description });
}
