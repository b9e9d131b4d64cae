/* eslint-disable @typescript-eslint/no-require-imports -- sql.js ships no types; CommonJS */
/**
 * A document whose attachment files are in an external store the server does not have, as when a
 * document with S3-stored attachments is brought to another Grist: its `.grist` file is
 * downloaded, its `_gristsys_Files` rows lose their bytes and name a store (`storageId`), and it
 * is imported as a new document. Plain HTTP to the site, so it works on the emulator and on a
 * real Grist alike; Attachment → Restore From Archive puts the files back.
 */
interface SqlJs {
	Database: new (data?: Uint8Array) => {
		run(sql: string, params?: unknown[]): void;
		export(): Uint8Array;
		close(): void;
	};
}

const initSqlJs = () => (require('sql.js') as () => Promise<SqlJs>)();

export async function importWithFilesElsewhere(
	site: string,
	apiKey: string,
	sourceDocId: string,
	workspaceId: number,
	name: string,
): Promise<string> {
	const auth = { Authorization: `Bearer ${apiKey}` };
	const res = await fetch(`${site}/api/docs/${sourceDocId}/download?nohistory=1`, {
		headers: auth,
	});
	if (res.status !== 200) throw new Error(`download of ${sourceDocId}: ${res.status}`);
	const SQL = await initSqlJs();
	const db = new SQL.Database(new Uint8Array(await res.arrayBuffer()));
	let file: Uint8Array;
	try {
		db.run('UPDATE _gristsys_Files SET data = NULL, storageId = ?', ['gone-snapshots']);
		file = db.export();
	} finally {
		db.close();
	}
	const form = new FormData();
	form.append('upload', new Blob([file as Uint8Array<ArrayBuffer>]), `${name}.grist`);
	const imported = await fetch(`${site}/api/workspaces/${workspaceId}/import`, {
		method: 'POST',
		headers: auth,
		body: form,
	});
	const json = (await imported.json()) as { id?: string };
	if (imported.status !== 200 || !json.id)
		throw new Error(`import: ${imported.status} ${JSON.stringify(json)}`);
	return json.id;
}
