/**
 * POST /api/docs/{docId}/apply (§4 "Other", `?noparse`): a list of user actions, all or nothing.
 * Emulated: AddRecord, BulkAddRecord, [Bulk]UpdateRecord, [Bulk]RemoveRecord, AddTable,
 * RemoveTable, RenameTable, AddColumn, AddVisibleColumn, ModifyColumn, RemoveColumn,
 * RenameColumn; any other is the sandbox's AttributeError (index.ts's header: the guesses).
 */
import type { Ctx, Route } from './context';
import { json } from './context';
import { addColumns, addRows, removeColumn, storeValue, updateColumn, updateRows } from './actions';
import { docRoute, flag, invalidPayload } from './docworker';
import { ApiError } from './http';
import type { Column, Doc, Row, Table } from './model';
import { dropColumnSlots, dropTableSlot, isHiddenCol, tableIdent, uniqueIdent } from './model';

function cloneTables(doc: Doc): Table[] {
	return doc.tables.map((t) => ({
		...t,
		columns: t.columns.map((col) => ({ ...col })),
		rows: new Map([...t.rows].map(([id, row]) => [id, { ...row }])),
	}));
}

/** The user actions GranularAccess.ts classifies (SPECIAL, SURPRISING, OK, OTHER_RECOGNIZED_ACTIONS). */
const GRIST_ACTIONS = new Set(
	(
		'AddColumn AddEmptyRule AddEmptyTable AddHiddenColumn AddOrUpdateRecord AddRawTable AddRecord ' +
		'AddReverseColumn AddTable AddView AddViewSection AddVisibleColumn ApplyDocActions ' +
		'ApplyUndoActions BulkAddOrUpdateRecord BulkAddRecord BulkRemoveRecord BulkUpdateRecord ' +
		'Calculate ConvertFromColumn CopyFromColumn CreateViewSection DetachSummaryViewSection ' +
		'DuplicateTable EvalCode FillTransformRuleColIds GenImporterView InitNewDoc ' +
		'MakeImportTransformColumns MaybeCopyDisplayFormula ModifyColumn RemoveColumn RemoveRecord ' +
		'RemoveTable RemoveView RemoveViewSection RenameChoices RenameColumn RenameTable ' +
		'ReplaceTableData RespondToRequests SetDisplayFormula TransformAndFinishImport ' +
		'UpdateCurrentTime UpdateRecord UpdateSummaryViewSection'
	).split(' '),
);

function applyActions(c: Ctx, doc: Doc, actions: unknown): unknown {
	// ActiveDoc.applyUserActions asserts the array (a 500 with the assertion's text)
	if (!Array.isArray(actions)) throw new ApiError(500, '`actions` parameter should be an array.');
	if (actions.some((a) => !Array.isArray(a) || typeof a[0] !== 'string'))
		throw invalidPayload('body is not an array of user actions');
	// GranularAccess refuses an action name it does not know before the data engine sees it
	for (const a of actions as unknown[][])
		if (!GRIST_ACTIONS.has(String(a[0])))
			throw new ApiError(
				500,
				`Blocked by access rules: '${String(a[0])}' actions are not controlled`,
			);
	const noparse = flag(c, 'noparse');
	const backup = cloneTables(doc);
	const slotsBackup = doc.colSlots && [...doc.colSlots];
	const tableSlotsBackup = doc.tableSlots && [...doc.tableSlots];
	const sbx = (msg: string) => new ApiError(500, `[Sandbox] ${msg}`);
	const tableOf = (id: unknown): Table => {
		const t = c.store.table(doc, String(id));
		if (!t) throw sbx(`KeyError '${String(id)}'`);
		return t;
	};
	const colOf = (t: Table, id: unknown): Column => {
		const col = t.columns.find((x) => x.id === id);
		if (!col) throw sbx(`KeyError '${String(id)}'`);
		return col;
	};
	const colValues = (
		t: Table,
		values: Record<string, unknown[]> | Record<string, unknown>,
		i?: number,
	): Row => {
		const out: Row = {};
		for (const [k, v] of Object.entries(values ?? {})) {
			const col = colOf(t, k);
			if (col.isFormula && col.formula.trim() !== '')
				throw sbx(`ValueError Can't save value to formula column ${k}`);
			if (col.isFormula) col.isFormula = false;
			const raw = i === undefined ? v : (v as unknown[])[i];
			out[k] = storeValue(c, doc, col, raw, noparse);
		}
		return out;
	};
	// all or nothing: an action that fails rolls back the ones before it (the error propagates as is)
	let applied = false;
	try {
		const retValues = (actions as unknown[][]).map((a) => {
			const [name, ...args] = a;
			switch (name) {
				case 'AddRecord': {
					const t = tableOf(args[0]);
					return addRows(
						c,
						t,
						[colValues(t, args[2] as Record<string, unknown>)],
						[(args[1] as number) ?? undefined],
					)[0];
				}
				case 'BulkAddRecord': {
					const t = tableOf(args[0]);
					const ids = args[1] as Array<number | null>;
					const vals = (args[2] ?? {}) as Record<string, unknown[]>;
					return addRows(
						c,
						t,
						ids.map((_id, i) => colValues(t, vals, i)),
						ids.map((id) => id ?? undefined),
					);
				}
				case 'UpdateRecord':
				case 'BulkUpdateRecord': {
					const t = tableOf(args[0]);
					const bulk = name === 'BulkUpdateRecord';
					const ids = (bulk ? args[1] : [args[1]]) as number[];
					// docactions.py's BulkUpdateRecord asserts each id in order (measured on grist-core
					// 1.7.17); an update without columns is a no-op that asserts nothing (measured)
					if (Object.keys((args[2] ?? {}) as object).length === 0) return null;
					for (const id of ids)
						if (!t.rows.has(id))
							throw sbx(
								`AssertionError docactions.[Bulk]UpdateRecord for non-existent record #${id}`,
							);
					updateRows(
						c,
						t,
						ids.map((id, i) => ({
							id,
							values: colValues(t, args[2] as Record<string, unknown[]>, bulk ? i : undefined),
						})),
					);
					return null;
				}
				case 'RemoveRecord':
				case 'BulkRemoveRecord': {
					const t = tableOf(args[0]);
					// ids that do not exist are ignored, as by the data engine
					c.store.removeRows(t, (name === 'BulkRemoveRecord' ? args[1] : [args[1]]) as number[]);
					return null;
				}
				case 'AddTable': {
					const t = c.store.addTable(doc, c.store.newTableId(doc, String(args[0] ?? '')));
					const infos = (args[1] ?? []) as Array<Record<string, unknown>>;
					addColumns(
						c,
						doc,
						t,
						infos.map(({ id: colId, ...fields }) => ({ id: colId, fields })),
						'table',
					);
					// useractions.py doAddTable: the primary view (doAddView) is in `views`, with its section
					return {
						id: t.tableRef,
						table_id: t.id,
						columns: t.columns.filter((x) => !isHiddenCol(x.id)).map((x) => x.id),
						views: [{ id: t.primaryViewId, sections: [t.viewSectionRef] }],
					};
				}
				case 'RemoveTable': {
					const t = tableOf(args[0]);
					doc.tables = doc.tables.filter((x) => x !== t);
					dropTableSlot(doc, t.tableRef);
					dropColumnSlots(
						doc,
						t.columns.map((x) => x.colRef),
					);
					return null;
				}
				case 'RenameTable': {
					const t = tableOf(args[0]);
					t.id = uniqueIdent(tableIdent(String(args[1]), true), (x) =>
						doc.tables.some((o) => o !== t && o.id === x),
					);
					return t.id;
				}
				case 'AddColumn':
				case 'AddVisibleColumn': {
					const t = tableOf(args[0]);
					const [colId] = addColumns(
						c,
						doc,
						t,
						[{ id: args[1], fields: (args[2] ?? {}) as Record<string, unknown> }],
						'column',
					);
					const col = t.columns.find((x) => x.id === colId)!;
					return { colRef: col.colRef, colId };
				}
				case 'RemoveColumn': {
					const t = tableOf(args[0]);
					const col = colOf(t, args[1]);
					removeColumn(doc, t, col);
					return null;
				}
				case 'ModifyColumn': {
					const t = tableOf(args[0]);
					const col = colOf(t, args[1]);
					updateColumn(c, t, col, (args[2] ?? {}) as Record<string, unknown>);
					return null;
				}
				case 'RenameColumn': {
					const t = tableOf(args[0]);
					const col = colOf(t, args[1]);
					updateColumn(c, t, col, { colId: args[2] });
					return col.id;
				}
				default:
					throw sbx(`AttributeError 'UserActions' object has no attribute '${String(name)}'`);
			}
		});
		applied = true;
		doc.updatedAt = c.store.now();
		return { actionNum: ++applyCounter, actionHash: null, retValues, isModification: true };
	} finally {
		if (!applied) {
			doc.tables = backup;
			doc.colSlots = slotsBackup;
			doc.tableSlots = tableSlotsBackup;
		}
	}
}
let applyCounter = 0;

export const applyRoutes: Route[] = [
	docRoute('POST', 'apply', 'editors', (c, doc) => applyActions(c, doc, json(c))),
];
