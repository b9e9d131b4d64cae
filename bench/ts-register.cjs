// Loads the TypeScript sources of test/emulator and test/harness in plain Node (no build step, no
// new dependency): `.ts` files are transpiled on require with the project's own `typescript`,
// type-only, so `__dirname` stays the source folder (the e2e harness finds the repo from it).
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const ts = require('typescript');

const options = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	sourceMap: false,
	inlineSourceMap: true,
};

Module._extensions['.ts'] = function compileTs(module, filename) {
	const source = fs.readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, {
		fileName: filename,
		compilerOptions: options,
	});
	module._compile(outputText, filename);
};
