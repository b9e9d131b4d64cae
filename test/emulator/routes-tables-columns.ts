/**
 * §7 Columns and tables: GET/POST/PATCH /api/docs/{docId}/tables, and GET/POST/PATCH/PUT
 * /tables/{tableId}/columns and DELETE /tables/{tableId}/columns/{colId}. (No REST route
 * deletes a table: /apply's RemoveTable does, see routes-apply.ts.)
 */
import type { Ctx, Route } from './context';
import { json } from './context';
import { addColumns, checkColFields, removeColumn, updateColumn } from './actions';
import { asObject, docRoute, flag, getTable, tableRoute } from './docworker';
import { ApiError } from './http';
import type { Column, Doc, Table } from './model';
import { columnSlots, isHiddenCol, tableIdent, tableSlots } from './model';
import { validateBody } from './payload';

function columnFields(t: Table, col: Column) {
	return {
		colRef: col.colRef,
		parentId: t.tableRef,
		parentPos: col.parentPos,
		type: col.type,
		widgetOptions: col.widgetOptions,
		isFormula: col.isFormula,
		formula: col.formula,
		label: col.label,
		description: col.description,
		untieColIdFromLabel: col.untieColIdFromLabel,
		summarySourceCol: 0,
		displayCol: col.displayCol,
		visibleCol: col.visibleCol,
		rules: null,
		reverseCol: 0,
		recalcWhen: col.recalcWhen,
		recalcDeps: col.recalcDeps,
	};
}

/** The document's tables in GET /tables order (model.ts tableSlots). */
function listedTables(doc: Doc): Table[] {
	const at = new Map(tableSlots(doc).map((ref, i) => [ref, i]));
	return [...doc.tables].sort((a, b) => (at.get(a.tableRef) ?? 0) - (at.get(b.tableRef) ?? 0));
}

/** A table's columns in GET /columns order (model.ts columnSlots). */
function listedOrder(doc: Doc, t: Table): Column[] {
	const slots = columnSlots(doc);
	const at = new Map(slots.map((ref, i) => [ref, i]));
	return [...t.columns].sort((a, b) => (at.get(a.colRef) ?? 0) - (at.get(b.colRef) ?? 0));
}

function columnsJson(doc: Doc, t: Table, hidden: boolean) {
	return listedOrder(doc, t)
		.filter((col) => hidden || !isHiddenCol(col.id))
		.map((col) => ({ id: col.id, fields: columnFields(t, col) }));
}

function tablesJson(c: Ctx, doc: Doc) {
	const expand = c.query.expand === 'column';
	return {
		tables: listedTables(doc).map((t) => {
			const out: Record<string, unknown> = {
				id: t.id,
				fields: {
					tableRef: t.tableRef,
					primaryViewId: t.primaryViewId,
					summarySourceTable: t.summarySourceTable,
					onDemand: false,
					rawViewSectionRef: t.rawViewSectionRef,
					recordCardViewSectionRef: t.recordCardViewSectionRef,
				},
			};
			if (expand) out.columns = columnsJson(doc, t, false);
			return out;
		}),
	};
}

type SpecBody = 'ColumnsPost' | 'ColumnsPatch' | 'ColumnsPut' | 'TablesPost' | 'TablesPatch';

function colSpecs(body: unknown, type: SpecBody): Array<Record<string, unknown>> {
	validateBody(type, body);
	return (body as Record<string, Array<Record<string, unknown>>>)[
		type.startsWith('Tables') ? 'tables' : 'columns'
	];
}

export const tablesColumnsRoutes: Route[] = [
	docRoute('GET', 'tables', 'viewers', tablesJson),
	docRoute('POST', 'tables', 'editors', (c, doc) => {
		const specs = colSpecs(json(c), 'TablesPost');
		const ids = specs.map((s) => {
			const t = c.store.addTable(doc, c.store.newTableId(doc, String(s.id ?? '')));
			addColumns(c, doc, t, s.columns as Array<Record<string, unknown>>, 'table');
			return { id: t.id };
		});
		return { tables: ids };
	}),
	docRoute('PATCH', 'tables', 'editors', (c, doc) => {
		const specs = colSpecs(json(c), 'TablesPatch');
		const targets = specs.map((s) => getTable(c, doc, String(s.id)));
		specs.forEach((s, i) => {
			const fields = asObject(s.fields, 'fields');
			if (typeof fields.tableId === 'string') targets[i].id = tableIdent(fields.tableId, true);
		});
		return null;
	}),
	tableRoute('GET', 'columns', 'viewers', (c, doc, t) => ({
		columns: columnsJson(doc, t, flag(c, 'hidden')),
	})),
	tableRoute('POST', 'columns', 'editors', (c, doc, t) => {
		const ids = addColumns(c, doc, t, colSpecs(json(c), 'ColumnsPost'), 'column');
		return { columns: ids.map((id) => ({ id })) };
	}),
	tableRoute('PATCH', 'columns', 'editors', (c, _doc, t) => {
		const specs = colSpecs(json(c), 'ColumnsPatch');
		const shapes = new Set(
			specs.map((s) => Object.keys(asObject(s.fields, 'fields')).sort().join(',')),
		);
		if (shapes.size > 1) throw new ApiError(400, 'PATCH requires all records to have same fields');
		const cols = specs.map((s) => {
			const col = t.columns.find((x) => x.id === s.id);
			if (!col) throw new ApiError(404, `Column not found "${s.id}"`);
			checkColFields(asObject(s.fields, 'fields'));
			return col;
		});
		// one BulkUpdateRecord: the IDs picked for earlier columns are avoided by later ones
		const picked = new Set<string>();
		specs.forEach((s, i) => updateColumn(c, t, cols[i], asObject(s.fields, 'fields'), picked));
		return null;
	}),
	tableRoute('PUT', 'columns', 'editors', (c, doc, t) => {
		const specs = colSpecs(json(c), 'ColumnsPut');
		const noadd = flag(c, 'noadd');
		const noupdate = flag(c, 'noupdate');
		const replaceall = flag(c, 'replaceall');
		for (const s of specs) checkColFields(asObject(s.fields, 'fields'));
		const listed = new Set<Column>();
		const toAdd: Array<Record<string, unknown>> = [];
		for (const s of specs) {
			const col = t.columns.find((x) => x.id === s.id);
			if (col) {
				listed.add(col);
				if (!noupdate) updateColumn(c, t, col, asObject(s.fields, 'fields'));
			} else if (!noadd) toAdd.push(s);
		}
		// DocApi's PUT /columns: the updates, then the additions, then one BulkRemoveRecord of the
		// columns it did not update, listed (GET /columns order) before any of it was applied
		const unlisted = replaceall
			? listedOrder(doc, t).filter((col) => !listed.has(col) && !isHiddenCol(col.id))
			: [];
		addColumns(c, doc, t, toAdd, 'column');
		for (const col of unlisted) removeColumn(doc, t, col);
		return null;
	}),
	// an unknown table is not `Table not found` here
	docRoute('DELETE', 'tables/([^/]+)/columns/([^/]+)', 'editors', (c, doc, m) => {
		const tableId = decodeURIComponent(m[2]);
		const colId = decodeURIComponent(m[3]);
		const t = c.store.table(doc, tableId);
		const col = t?.columns.find((x) => x.id === colId);
		if (!t || !col) throw new ApiError(404, `Table or column not found "${tableId}.${colId}"`);
		removeColumn(doc, t, col);
		return null;
	}),
];
