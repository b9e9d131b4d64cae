/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test reads the node sources */
/**
 * The layering of nodes/, read from the source files:
 * - an operation never imports another operation, and a resource's folder (actions/<resource>/)
 *   never imports another resource's folder: what operations share lives in actions/*.ts
 *   (items, the operation frame), ../parameters/, ../write/, ../read/ and ../api/;
 * - only the API layer (the files of api/) builds Grist paths: its files are the only callers of
 *   `apiPath` and `buildPath` and the only code with an `/api/` string;
 * - the pure code (PURE below: cells/, query/, webhooks/, documents/, the texts of errors/ …)
 *   imports only pure code and n8n-workflow's types (no api client, no actions, no parameters);
 * - only parameters/ reads the node's parameters: no `getNodeParameter` or
 *   `getCurrentNodeParameter` anywhere else in nodes/ (the Grist node, both triggers, methods/),
 *   and no raw `getNode().parameters` either;
 * - no file name repeats across the folders of nodes/ and credentials/ (only `index.ts` and
 *   `*.operation.ts` may), so that a name says which file it is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';

/**
 * The pure code of nodes/, relative to the repository: folders (every .ts file below them) and
 * single files. Pure code imports only pure code and types of n8n-workflow. When you make a pure
 * module, add it here.
 */
const PURE = [
	'nodes/Grist/cells',
	'nodes/Grist/query',
	'nodes/Grist/webhooks',
	'nodes/Grist/documents',
	'nodes/Grist/errors/gristAnswers.ts',
	'nodes/Grist/errors/hints.ts',
	'nodes/Grist/errors/toolUnsupported.ts',
	'nodes/Grist/history',
	'nodes/Grist/api/url.ts',
	'nodes/Grist/api/retry.ts',
	'nodes/Grist/api/oauthScope.ts',
	'nodes/Grist/read/displayValues.ts',
	'nodes/Grist/write/plan.ts',
	'nodes/Grist/write/chunking.ts',
	'nodes/Grist/write/outcomeTexts.ts',
	'nodes/Grist/write/referenceCheck.ts',
	'nodes/Grist/admin',
];

/** File names that may repeat across folders. */
const REPEATABLE_NAME = /^(index\.ts|.*\.operation\.ts)$/;

const ROOT = path.join(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes');
const GRIST = path.join(NODES, 'Grist');
const ACTIONS = path.join(GRIST, 'actions');
const CELLS = path.join(GRIST, 'cells');
const PARAMETERS = path.join(GRIST, 'parameters');
const API_LAYER = path.join(GRIST, 'api');

interface Source {
	file: string;
	text: string;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory()
			? sourceFiles(path.join(dir, e.name))
			: e.name.endsWith('.ts')
				? [path.join(dir, e.name)]
				: [],
	);
}

const rel = (file: string) => path.relative(ROOT, file);

/** Relative imports of a file, resolved to absolute paths without extension. */
function relativeImports(src: Source): string[] {
	const sf = ts.createSourceFile(src.file, src.text, ts.ScriptTarget.ES2022, true);
	const out: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			const spec = node.moduleSpecifier.text;
			if (spec.startsWith('.')) out.push(path.resolve(path.dirname(src.file), spec));
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return out;
}

/** Where an operation file imports another operation, or a resource folder another resource's folder. */
export function actionViolations(sources: Source[]): string[] {
	const bad: string[] = [];
	for (const src of sources) {
		const fromDir = path.relative(ACTIONS, path.dirname(src.file));
		if (fromDir === '' || fromDir.startsWith('..')) continue; // not in actions/<resource>/
		const resource = fromDir.split(path.sep)[0];
		const isIndex = path.basename(src.file) === 'index.ts';
		for (const target of relativeImports(src)) {
			const toDir = path.relative(ACTIONS, path.dirname(target));
			const inResourceFolder = toDir !== '' && !toDir.startsWith('..');
			if (inResourceFolder && toDir.split(path.sep)[0] !== resource) {
				bad.push(`${rel(src.file)} imports another resource's folder: ${rel(target)}`);
			} else if (target.endsWith('.operation') && !isIndex) {
				bad.push(`${rel(src.file)} imports an operation: ${rel(target)}`);
			}
		}
	}
	return bad;
}

const inApiLayer = (file: string) => path.dirname(file) === API_LAYER;

/** Code outside the API layer (api/) that builds a Grist path. */
export function pathViolations(sources: Source[]): string[] {
	const bad: string[] = [];
	for (const src of sources) {
		if (inApiLayer(src.file)) continue;
		const sf = ts.createSourceFile(src.file, src.text, ts.ScriptTarget.ES2022, true);
		const visit = (node: ts.Node): void => {
			const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
			const where = `${rel(src.file)}:${line + 1}`;
			if (ts.isCallExpression(node)) {
				const callee = node.expression;
				const name = ts.isIdentifier(callee)
					? callee.text
					: ts.isPropertyAccessExpression(callee)
						? callee.name.text
						: '';
				if (name === 'apiPath' || name === 'buildPath') bad.push(`${where} calls ${name}`);
			}
			// an import of api/ (`../../api/records`) names a module, not a Grist path
			const parent = node.parent as ts.Node | undefined;
			const moduleName =
				parent !== undefined && (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent));
			if (
				(ts.isStringLiteral(node) ||
					ts.isNoSubstitutionTemplateLiteral(node) ||
					ts.isTemplateLiteralToken(node)) &&
				!moduleName &&
				/(^|\/)api\//.test(node.text)
			) {
				bad.push(`${where} builds an /api/ path: ${node.text}`);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return bad;
}

const PURE_PATHS = PURE.map((p) => path.join(ROOT, p));

/** Whether a file (or an import resolved without extension) is pure code. */
function isPure(file: string): boolean {
	const withExt = file.endsWith('.ts') ? file : `${file}.ts`;
	return PURE_PATHS.some((p) => withExt === p || !path.relative(p, withExt).startsWith('..'));
}

/** Package imports of a file: each specifier, and whether the import is of types only. */
function packageImports(src: Source): Array<{ spec: string; typeOnly: boolean }> {
	const sf = ts.createSourceFile(src.file, src.text, ts.ScriptTarget.ES2022, true);
	const out: Array<{ spec: string; typeOnly: boolean }> = [];
	for (const node of sf.statements) {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier) &&
			!node.moduleSpecifier.text.startsWith('.')
		) {
			let typeOnly: boolean;
			if (ts.isImportDeclaration(node)) {
				const clause = node.importClause;
				const named = clause?.namedBindings;
				typeOnly =
					clause !== undefined &&
					(clause.isTypeOnly ||
						(clause.name === undefined &&
							named !== undefined &&
							ts.isNamedImports(named) &&
							named.elements.length > 0 &&
							named.elements.every((e) => e.isTypeOnly)));
			} else {
				typeOnly = node.isTypeOnly;
			}
			out.push({ spec: node.moduleSpecifier.text, typeOnly });
		}
	}
	return out;
}

/** Imports of pure files that reach code that is not pure (or a package, but n8n-workflow's types). */
export function pureViolations(sources: Source[]): string[] {
	const bad: string[] = [];
	for (const src of sources) {
		if (!isPure(src.file)) continue;
		for (const target of relativeImports(src)) {
			if (!isPure(target)) bad.push(`${rel(src.file)} imports ${rel(target)} (not pure code)`);
		}
		for (const { spec, typeOnly } of packageImports(src)) {
			if (spec !== 'n8n-workflow' || !typeOnly)
				bad.push(
					`${rel(src.file)} imports ${typeOnly ? 'types of ' : ''}${spec} (pure code takes only types of n8n-workflow)`,
				);
		}
	}
	return bad;
}

/** File names that stand in more than one folder (besides index.ts and *.operation.ts). */
export function repeatedNames(files: string[]): string[] {
	const byName = new Map<string, string[]>();
	for (const file of files) {
		const name = path.basename(file);
		if (REPEATABLE_NAME.test(name)) continue;
		byName.set(name, [...(byName.get(name) ?? []), rel(file)]);
	}
	return [...byName.values()].filter((list) => list.length > 1).map((list) => list.join(' ~ '));
}

/**
 * The ways n8n gives a node its parameters; only parameters/ may use them (no exceptions: the
 * Grist node, both triggers and methods/ all read through parameters/).
 */
const PARAMETER_READERS = new Set(['getNodeParameter', 'getCurrentNodeParameter']);

/** Code outside parameters/ that reads a parameter itself (a call, or the method passed on). */
export function parameterViolations(sources: Source[]): string[] {
	const bad: string[] = [];
	for (const src of sources) {
		if (!path.relative(PARAMETERS, src.file).startsWith('..')) continue;
		const sf = ts.createSourceFile(src.file, src.text, ts.ScriptTarget.ES2022, true);
		const visit = (node: ts.Node): void => {
			const name =
				ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)
					? ts.isPropertyAccessExpression(node)
						? node.name.text
						: ts.isStringLiteralLike(node.argumentExpression)
							? node.argumentExpression.text
							: ''
					: ts.isBindingElement(node)
						? (node.propertyName ?? node.name).getText(sf)
						: '';
			// `getNode().parameters`: the node's raw values, without n8n's expressions and checks
			const rawParameters =
				name === 'parameters' &&
				ts.isPropertyAccessExpression(node) &&
				ts.isCallExpression(node.expression) &&
				ts.isPropertyAccessExpression(node.expression.expression) &&
				node.expression.expression.name.text === 'getNode';
			if (PARAMETER_READERS.has(name) || rawParameters) {
				const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
				const what = rawParameters ? 'getNode().parameters' : name;
				bad.push(`${rel(src.file)}:${line + 1} uses ${what} (read parameters through parameters/)`);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return bad;
}

const sources: Source[] = sourceFiles(NODES).map((file) => ({
	file,
	text: readFileSync(file, 'utf8'),
}));

describe('architecture of nodes/', () => {
	it('reads the sources', () => {
		expect(sources.filter((s) => inApiLayer(s.file)).length).toBeGreaterThan(10);
		expect(sources.filter((s) => s.file.endsWith('.operation.ts')).length).toBeGreaterThan(30);
	});

	it('no operation imports another operation; no resource folder imports another resource folder', () => {
		expect(actionViolations(sources)).toEqual([]);
	});

	it('only the API layer (api/) builds Grist paths', () => {
		expect(pathViolations(sources)).toEqual([]);
	});

	it('pure code imports only pure code and types of n8n-workflow (no api client, no actions)', () => {
		for (const entry of PURE) expect(existsSync(path.join(ROOT, entry))).toBe(true);
		expect(sources.filter((s) => isPure(s.file)).length).toBeGreaterThan(10);
		expect(pureViolations(sources)).toEqual([]);
	});

	it('no file name repeats across folders in nodes/ and credentials/ (but index.ts, *.operation.ts)', () => {
		const files = [...sourceFiles(NODES), ...sourceFiles(path.join(ROOT, 'credentials'))];
		expect(repeatedNames(files)).toEqual([]);
	});

	it('only parameters/ reads parameters (getNodeParameter, getCurrentNodeParameter, getNode().parameters)', () => {
		expect(sources.some((s) => path.dirname(s.file) === PARAMETERS)).toBe(true);
		expect(parameterViolations(sources)).toEqual([]);
	});

	it('each check catches a planted violation', () => {
		const plant = (file: string, text: string): Source[] => [
			...sources.filter((s) => s.file !== file),
			{ file, text: `${sources.find((s) => s.file === file)?.text ?? ''}\n${text}\n` },
		];
		const columnarDelete = path.join(ACTIONS, 'columnar', 'delete.operation.ts');
		const recordCreate = path.join(ACTIONS, 'record', 'create.operation.ts');
		expect(
			actionViolations(
				plant(columnarDelete, "import { execute as x } from '../record/delete.operation';"),
			),
		).toEqual([
			"nodes/Grist/actions/columnar/delete.operation.ts imports another resource's folder: nodes/Grist/actions/record/delete.operation",
		]);
		expect(
			actionViolations(plant(recordCreate, "import { execute as x } from './update.operation';")),
		).toEqual([
			'nodes/Grist/actions/record/create.operation.ts imports an operation: nodes/Grist/actions/record/update.operation',
		]);
		expect(pathViolations(plant(recordCreate, "const p = apiPath('docs', 'x');"))).toHaveLength(1);
		expect(pathViolations(plant(recordCreate, 'const p = `/api/docs/${x}/tables`;'))).toHaveLength(
			1,
		);
		const picker = path.join(GRIST, 'methods', 'loadOptions.ts');
		expect(pathViolations(plant(picker, "const p = buildPath(client, 'docs');"))).toHaveLength(1);
		expect(pathViolations(plant(picker, "import { fetchColumns } from '../api/columns';"))).toEqual(
			[],
		);
		const records = path.join(API_LAYER, 'records.ts');
		expect(pathViolations(plant(records, "const p = buildPath(client, 'docs');"))).toEqual([]);
		const planted = parameterViolations(
			plant(recordCreate, "const x = this.getNodeParameter('simplify', 0, true);"),
		);
		expect(planted).toHaveLength(1);
		expect(planted[0]).toMatch(
			/^nodes\/Grist\/actions\/record\/create\.operation\.ts:\d+ uses getNodeParameter /,
		);
		const trigger = path.join(NODES, 'GristTrigger', 'GristTrigger.node.ts');
		expect(
			parameterViolations(plant(trigger, 'const { getNodeParameter: get } = this;')),
		).toHaveLength(1);
		expect(
			parameterViolations(plant(picker, "const v = ctx['getCurrentNodeParameter']('table');")),
		).toHaveLength(1);
		expect(
			parameterViolations(
				plant(path.join(PARAMETERS, 'read.ts'), "const v = ctx.getNodeParameter('x', 0);"),
			),
		).toEqual([]);
		const client = path.join(API_LAYER, 'client.ts');
		const raw = parameterViolations(
			plant(client, 'const a = ctx.getNode().parameters.authentication;'),
		);
		expect(raw).toHaveLength(1);
		expect(raw[0]).toMatch(/api\/client\.ts:\d+ uses getNode\(\)\.parameters /);
		const columns = path.join(CELLS, 'tableColumns.ts');
		expect(
			pureViolations(plant(columns, "import type { GristClient } from '../api/client';")),
		).toEqual(['nodes/Grist/cells/tableColumns.ts imports nodes/Grist/api/client (not pure code)']);
		expect(
			pureViolations(plant(columns, "import { NodeOperationError } from 'n8n-workflow';")),
		).toEqual([
			'nodes/Grist/cells/tableColumns.ts imports n8n-workflow (pure code takes only types of n8n-workflow)',
		]);
		expect(pureViolations(plant(columns, "import type { Foo } from 'lodash';"))).toHaveLength(1);
		expect(
			pureViolations(plant(columns, "import { CellValueError } from './cellValues';")),
		).toEqual([]);
		expect(
			repeatedNames([
				path.join(GRIST, 'cells', 'cellValues.ts'),
				path.join(GRIST, 'query', 'cellValues.ts'),
				path.join(ACTIONS, 'record', 'index.ts'),
				path.join(ACTIONS, 'table', 'index.ts'),
				path.join(ACTIONS, 'record', 'get.operation.ts'),
				path.join(ACTIONS, 'table', 'get.operation.ts'),
			]),
		).toEqual(['nodes/Grist/cells/cellValues.ts ~ nodes/Grist/query/cellValues.ts']);
	});
});
