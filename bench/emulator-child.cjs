// The Grist emulator in a child process of the bench (`fork`), driven over IPC: the package's own
// time (bench/run.mjs, 3b) is then measured in a process that runs only n8n-core and the node, so
// the emulator's request handling, its tables and their garbage collection are not in it.
// Messages: { id, method, args } → { id, result } | { id, error }; methods of GristEmulator
// (seedDemo, addTable, addRecords, close…) and `url`.
'use strict';
require('./ts-register.cjs');
const { startEmulator } = require('../test/emulator/index.ts');

startEmulator(JSON.parse(process.argv[2] ?? '{}')).then((emu) => {
	process.on('message', async ({ id, method, args }) => {
		try {
			const result = method === 'url' ? emu.url : await emu[method](...(args ?? []));
			process.send({ id, result });
			if (method === 'close') process.disconnect();
		} catch (e) {
			process.send({ id, error: String(e?.stack ?? e) });
		}
	});
	process.send({ ready: true });
});
