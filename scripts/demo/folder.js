// Where the demo's n8n folder really is. .tools/demo-n8n (git-ignored) is a link to a folder
// outside the clone (DEMO_HOME): n8n loads the package from the folder's .n8n/nodes, and Node.js
// looks in every node_modules above a package before n8n's own module paths, so inside the clone
// the package would reach the clone's development copies of n8n-workflow, n8n-core and @n8n/*.
// Outside it, it reaches what n8n's installer leaves: nothing.
'use strict';

const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT } = require('./examples');

/** One per clone, in the user's cache folder. */
const DEMO_HOME = path.join(
	process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
	'n8n-nodes-payment-gateway',
	`demo-${path.basename(ROOT)}-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`,
);

/**
 * `folder` (inside the clone) as a link to DEMO_HOME; a real folder left by an earlier version of
 * the demo moves there first, so its workflows and executions are kept.
 */
function linkOutsideClone(folder) {
	const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
	fs.mkdirSync(path.dirname(DEMO_HOME), { recursive: true });
	if (stat?.isSymbolicLink() && fs.readlinkSync(folder) === DEMO_HOME) {
		fs.mkdirSync(DEMO_HOME, { recursive: true });
		return;
	}
	if (stat?.isDirectory() && !fs.existsSync(DEMO_HOME)) {
		fs.cpSync(folder, DEMO_HOME, { recursive: true, verbatimSymlinks: true });
	}
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(DEMO_HOME, { recursive: true });
	fs.mkdirSync(path.dirname(folder), { recursive: true });
	fs.symlinkSync(DEMO_HOME, folder);
}

/**
 * The demo's n8n folder ready to use: linked outside the clone (unless `linked` is false: a folder
 * given by DEMO_N8N_FOLDER), and emptied first with `reset`. Linked before the reset: a clone made
 * again at the same path finds the folder an earlier one left outside it, which --reset empties too.
 */
function prepareFolder(folder, { reset, linked = true, log = () => undefined }) {
	if (linked) linkOutsideClone(folder);
	if (reset && fs.existsSync(folder)) {
		const real = fs.realpathSync(folder);
		log(real);
		fs.rmSync(real, { recursive: true, force: true });
		fs.mkdirSync(real, { recursive: true });
	}
	fs.mkdirSync(folder, { recursive: true });
}

module.exports = { DEMO_HOME, linkOutsideClone, prepareFolder };
