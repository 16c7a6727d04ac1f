// An n8n "whose internals changed", for the refused-trigger suite: a preload
// (NODE_OPTIONS=--require) that hides ProcessedDataRepository from @n8n/db only for requests made
// by this package's door to n8n's internals (a module under /n8n-internals/). n8n itself loads and
// uses @n8n/db untouched; the door sees the change as it would see a release without that
// repository ("database rows: CHANGED"). The preload writes a line into a marker file each time it
// hides the export, so the test knows it ran inside n8n's process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The preload: n8n's @n8n/db as the door receives it, without ProcessedDataRepository. */
export function writePreload(folder: string): { file: string; marker: string } {
	const file = join(folder, 'hide-processed-data-repository.js');
	const marker = join(folder, 'hidden.log');
	writeFileSync(
		file,
		`'use strict';
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const HIDDEN = 'ProcessedDataRepository';
const DB = /[\\\\/]node_modules[\\\\/]@n8n[\\\\/]db[\\\\/]dist[\\\\/]index\\.js$/;
const DOOR = /[\\\\/]n8n-internals[\\\\/]/;
const proxies = new WeakMap();
// A proxy over an empty target: @n8n/db's exports are non-configurable, which a proxy over them
// could not report as missing.
const hide = (real) =>
	new Proxy({}, {
		get: (_, key) => (key === HIDDEN ? undefined : Reflect.get(real, key)),
		has: (_, key) => key !== HIDDEN && Reflect.has(real, key),
		ownKeys: () => Reflect.ownKeys(real).filter((key) => key !== HIDDEN),
		getOwnPropertyDescriptor: (_, key) => {
			const found = key === HIDDEN ? undefined : Reflect.getOwnPropertyDescriptor(real, key);
			return found && { ...found, configurable: true };
		},
	});
const load = Module._load;
Module._load = function (request, parent, isMain) {
	const loaded = load.apply(this, arguments);
	if (!parent || !DOOR.test(parent.filename || '')) return loaded;
	let file;
	try {
		file = Module._resolveFilename(request, parent, isMain);
	} catch {
		return loaded;
	}
	if (!DB.test(file)) return loaded;
	if (!proxies.has(loaded)) proxies.set(loaded, hide(loaded));
	appendFileSync(${JSON.stringify(marker)}, process.pid + ' ' + parent.filename + '\\n');
	return proxies.get(loaded);
};
`,
	);
	return { file, marker };
}
