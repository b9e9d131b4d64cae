// The block `npm start` (scripts/start.mjs) prints once n8n is ready: the editor and its login,
// then the Grist in use, with what another tool needs (n8n's built-in Grist node, curl): with
// the emulator its URL, its API key (a local demo key, made at each start), the team and the demo
// documents with their tables; with a real Grist (GRIST_URL, GRIST_API_KEY) its URL only, never
// its key.

/** Lines of `label: value`, the values aligned one column after the longest label. */
function aligned(rows) {
	const width = Math.max(...rows.map(([label]) => label.length)) + 2;
	return rows.map(([label, value]) => `  ${label ? `${label}:` : ''}`.padEnd(width + 2) + value);
}

/**
 * @param {import('./start-summary.d.cts').StartSummary} s
 * @returns {string} the block, blank lines around it included
 */
function startSummary(s) {
	const rows = [
		['n8n editor', s.editorUrl],
		['login', s.email],
		['password', s.password],
		['credential', `"${s.credentialName}" (ready in n8n, on the Grist below)`],
		['', ''],
	];
	const g = s.grist;
	if (g.kind === 'emulator') {
		const nameWidth = Math.max(...g.docs.map((d) => d.name.length));
		const first = g.docs[0];
		rows.push(
			['Grist URL', `${g.url}   (the emulator)`],
			['API key', `${g.apiKey}   (the emulator's local demo key)`],
			['team', `${g.orgDomain} (${g.orgName})`],
			...g.docs.map((d, i) => [
				i === 0 ? 'documents' : '',
				`${d.name.padEnd(nameWidth)}  ${d.id}  tables ${d.tables.join(', ')}`,
			]),
		);
		if (first)
			rows.push([
				'try',
				`curl -H "Authorization: Bearer ${g.apiKey}" ${g.url}/api/docs/${first.id}/tables/${first.tables[0]}/records`,
			]);
	} else {
		rows.push(
			['Grist URL', `${g.url}   (GRIST_URL)`],
			['API key', 'yours, from GRIST_API_KEY (not shown)'],
		);
	}
	rows.push(
		['', ''],
		[
			'stop',
			`Ctrl-C here, or kill ${s.pid} (stops n8n${g.kind === 'emulator' ? ' and the emulator' : ''})`,
		],
	);
	const lines = aligned(rows).map((l) => (l.trim() === '' ? '' : l.trimEnd()));
	return [
		'',
		...lines,
		'',
		'  Add a "Grist Records & Documents" node to a workflow and pick the credential; other',
		"  tools (n8n's own Grist node, curl) take the Grist URL and API key above.",
		'',
	].join('\n');
}

module.exports = { startSummary };
