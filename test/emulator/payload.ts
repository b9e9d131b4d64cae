/**
 * Body validation of the schema-checked doc endpoints, with Grist's messages: grist-core checks
 * these bodies with ts-interface-checker (types in app/plugin/DocApiTypes.ts, CellValue in
 * GristData.ts) and answers 400 `{"error":"Invalid payload","details":{"userError":"Error: …"}}`.
 * The texts below were produced by ts-interface-checker 1.0.2 (grist-core's version) on those
 * types: e.g. `{"records":[]}` → `Error: body.records[0] is not a NewRecord; body.records[0] is
 * not an object`. Only the checks these types need are written here.
 */
import { ApiError } from './http';

/** A failed check: messages from the outermost type to the innermost, or null when valid. */
type Check = (v: unknown, path: string) => string[] | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
	v !== null && typeof v === 'object' && !Array.isArray(v);

const prim =
	(kind: 'number' | 'string' | 'boolean'): Check =>
	(v, path) =>
		typeof v === kind ? null : [`${path} is not a ${kind}`];

/** A named type: its failure is prefixed with `path is not a Name`. */
const named =
	(name: string, check: Check): Check =>
	(v, path) => {
		const inner = check(v, path);
		return inner ? [`${path} is not a ${name}`, ...inner] : null;
	};

/** An interface: required (`opt` false) and optional props; `index` checks every other key. */
function iface(props: Record<string, { check: Check; opt?: boolean }>, index?: Check): Check {
	return (v, path) => {
		if (!isObject(v)) return [`${path} is not an object`];
		for (const [k, p] of Object.entries(props)) {
			if (v[k] === undefined) {
				if (p.opt) continue;
				return [`${path}.${k} is missing`];
			}
			const err = p.check(v[k], `${path}.${k}`);
			if (err) return err;
		}
		if (index)
			for (const [k, x] of Object.entries(v)) {
				if (k in props) continue;
				const err = index(x, `${path}.${k}`);
				if (err) return err;
			}
		return null;
	};
}

/** `T[]`; with `min` 1, `[T, ...T[]]` (a missing first element fails as that element). */
const arrayOf =
	(item: Check, min = 0): Check =>
	(v, path) => {
		if (!Array.isArray(v)) return [`${path} is not an array`];
		for (let i = 0; i < Math.max(min, v.length); i++) {
			const err = item(v[i], `${path}[${i}]`);
			if (err) return err;
		}
		return null;
	};

const nonEmpty = (item: Check): Check => arrayOf(item, 1);

const OBJ_CODES = new Set(['L', 'l', 'O', 'D', 'd', 'R', 'r', 'E', 'P', 'U', 'C', 'S', 'V']);

/** CellValue: number | string | boolean | null | [GristObjCode, ...unknown[]]. */
const cellValue: Check = (v, path) => {
	if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
		return null;
	if (Array.isArray(v) && typeof v[0] === 'string' && OBJ_CODES.has(v[0])) return null;
	const out = [
		`${path} is not a CellValue`,
		`${path} is none of number, string, boolean, null, 1 more`,
	];
	if (Array.isArray(v))
		out.push(`${path}[0] is not a GristObjCode`, `${path}[0] is not a valid enum value`);
	return out;
};

const cells = iface({}, cellValue);
const NewRecord = named('NewRecord', iface({ fields: { check: cells, opt: true } }));
const RecordT = named('Record', iface({ id: { check: prim('number') }, fields: { check: cells } }));
const AddOrUpdateRecord = named(
	'AddOrUpdateRecord',
	iface({
		require: { check: iface({ id: { check: prim('number'), opt: true } }, cellValue) },
		fields: { check: cells, opt: true },
	}),
);
const NewRecordWithStringId = named(
	'NewRecordWithStringId',
	iface({ id: { check: prim('string'), opt: true }, fields: { check: cells, opt: true } }),
);
const RecordWithStringId = named(
	'RecordWithStringId',
	iface({ id: { check: prim('string') }, fields: { check: cells } }),
);
const TablePost = named(
	'TablePost',
	iface({
		columns: { check: nonEmpty(NewRecordWithStringId) },
		id: { check: prim('string'), opt: true },
	}),
);

const BODIES = {
	RecordsPost: iface({ records: { check: nonEmpty(NewRecord) } }),
	RecordsPatch: iface({ records: { check: nonEmpty(RecordT) } }),
	RecordsPut: iface({ records: { check: nonEmpty(AddOrUpdateRecord) } }),
	ColumnsPost: iface({ columns: { check: nonEmpty(NewRecordWithStringId) } }),
	ColumnsPatch: iface({ columns: { check: nonEmpty(RecordWithStringId) } }),
	ColumnsPut: iface({ columns: { check: nonEmpty(RecordWithStringId) } }),
	TablesPost: iface({ tables: { check: nonEmpty(TablePost) } }),
	TablesPatch: iface({ tables: { check: nonEmpty(RecordWithStringId) } }),
	RecordsListPost: iface({
		filter: {
			check: iface(
				{},
				arrayOf(() => null),
			),
			opt: true,
		},
		sort: { check: arrayOf(prim('string')), opt: true },
		limit: { check: prim('number'), opt: true },
		hidden: { check: prim('boolean'), opt: true },
		immediate: { check: prim('boolean'), opt: true },
		cellFormat: {
			check: (v, path) =>
				v === 'normal' || v === 'typed'
					? null
					: [`${path} is not a CellFormatType`, `${path} is none of "normal", "typed"`],
			opt: true,
		},
	}),
};

/**
 * Checks a body like grist-core's `validate(<Type>)` and throws its 400. The reported path is
 * `body`, except for PUT /columns, whose checker grist-core forgot to give one (`value`).
 */
export function validateBody(type: keyof typeof BODIES, body: unknown): void {
	const err = BODIES[type](body, type === 'ColumnsPut' ? 'value' : 'body');
	if (err) throw new ApiError(400, 'Invalid payload', { userError: `Error: ${err.join('; ')}` });
}
