/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: reads and writes the committed snapshot files */
/**
 * Every node version's parameters against its committed snapshot (test/unit/node-versions/, see
 * test/harness/node-snapshot.ts): a released version must not change — the change goes into a
 * new node version —, an unreleased one is rewritten by `npm run snapshot`. Also: every version
 * has its snapshot and its output shapes (output-shapes.test.ts pins them), and the saved
 * workflows of examples/ hold nothing their node versions do not read.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import {
	GRIST_INSTANT_TRIGGER_RETIRED,
	GRIST_RETIRED,
	GRIST_TRIGGER_RETIRED,
} from '../../nodes/Grist/parameters/retiredParameters';
import {
	savedParameterProblem,
	type RetiredParameter,
} from '../../nodes/Grist/parameters/savedParameters';
import {
	OUTPUTS_FILE,
	UPDATING,
	changedMessage,
	parameterChanges,
	parametersOf,
	readJson,
	versionFile,
	versionsOf,
	writeJson,
	type OutputShapes,
	type VersionSnapshot,
} from '../harness/node-snapshot';

const NODES: Array<{ description: INodeTypeDescription; retired: RetiredParameter[] }> = [
	{ description: new Grist().description, retired: GRIST_RETIRED },
	{ description: new GristTrigger().description, retired: GRIST_TRIGGER_RETIRED },
	{ description: new GristWebhookTrigger().description, retired: GRIST_INSTANT_TRIGGER_RETIRED },
];

const versions = NODES.flatMap(({ description }) =>
	versionsOf(description).map((version) => ({ description, version })),
);

describe.each(versions)('$description.name version $version', ({ description, version }) => {
	const file = versionFile(description.name, version);
	const what = `${description.displayName} (${description.name}) version ${version}, its parameters`;

	it('has the parameters of its snapshot', () => {
		const parameters = parametersOf(description, version);
		const saved = readJson<VersionSnapshot>(file);
		if (!saved) {
			if (UPDATING) {
				writeJson(file, { node: description.name, version, released: null, parameters });
				return;
			}
			throw new Error(
				`${what}: no snapshot (${path.relative(process.cwd(), file)}); run \`npm run snapshot\` and commit it.`,
			);
		}
		const same = JSON.stringify(saved.parameters) === JSON.stringify(parameters);
		if (same) return;
		if (UPDATING && !saved.released) {
			writeJson(file, { ...saved, parameters });
			return;
		}
		throw new Error(
			changedMessage(what, saved.released, parameterChanges(saved.parameters, parameters)),
		);
	});

	it('has its output shapes pinned', () => {
		const outputs = readJson<OutputShapes>(OUTPUTS_FILE) ?? {};
		const mine = Object.values(outputs).filter(
			(o) => o.node === description.name && o.version === version,
		);
		expect(mine.length).toBeGreaterThan(0);
	});
});

it('a snapshot file for each node version and nothing else', () => {
	const dir = path.dirname(OUTPUTS_FILE);
	const expected = versions.map(({ description, version }) =>
		path.basename(versionFile(description.name, version)),
	);
	expect(
		fs
			.readdirSync(dir)
			.filter((f) => f !== path.basename(OUTPUTS_FILE))
			.sort(),
	).toEqual(expected.sort());
});

describe('the examples hold nothing their node versions do not read', () => {
	const examples = fs
		.readdirSync(path.join(__dirname, '..', '..', 'examples'))
		.filter((f) => f.endsWith('.json'));
	const byType = new Map(
		NODES.flatMap((n) => [
			[`n8n-nodes-grist.${n.description.name}`, n],
			[`n8n-nodes-grist.${n.description.name}Tool`, n],
		]),
	);
	it.each(examples)('%s', (file) => {
		const wf = JSON.parse(
			fs.readFileSync(path.join(__dirname, '..', '..', 'examples', file), 'utf8'),
		) as { nodes: INode[] };
		const ours = wf.nodes.filter((n) => byType.has(n.type));
		expect(ours.length).toBeGreaterThan(0);
		for (const saved of ours) {
			const { description, retired } = byType.get(saved.type)!;
			// what n8n hands the node: the saved values through the description (Workflow's constructor)
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				saved.parameters,
				true,
				false,
				saved,
				description,
			)!;
			expect([
				saved.name,
				savedParameterProblem({ ...saved, parameters }, description, retired),
			]).toEqual([saved.name, undefined]);
		}
	});
});
