// The Payment Gateway Trigger's exactly-once mode in the running demo, read from the line the
// package logs when n8n activates a published trigger; the demo stops when it is not the
// documented one (a trigger answering every payment 503 would otherwise be found by nobody).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const { TRIGGER_TYPE, listensForEvents } = require('./examples');
const { sleep, tail } = require('./processes');

/** The mode the demo documents (docs/running-at-scale.md, regular mode). */
const DOCUMENTED_MODE = 'memory + database rows + execution check';

/**
 * The mode logged since `demo.logStart` in the demo folder's n8n.log; undefined when no example
 * has an enabled trigger. Throws when it is not logged within 60 s or is not the documented one.
 */
async function exactlyOnceMode(demo, workflows) {
	const hasTrigger = (w) => listensForEvents(w) && (w.nodes ?? []).some((n) => n.type === TRIGGER_TYPE && !n.disabled);
	if (!workflows.some(hasTrigger)) return undefined;
	const logFile = path.join(demo.folder, 'n8n.log');
	const deadline = Date.now() + 60_000;
	let line;
	while (!demo.stopping && Date.now() < deadline) {
		line = fs.readFileSync(logFile).subarray(demo.logStart).toString('utf8').split('\n').filter((l) => l.includes('exactly-once mode of the trigger:')).pop();
		if (line) break;
		await sleep(500);
	}
	if (!line) throw new Error(`the Payment Gateway Trigger's exactly-once mode was not logged within 60 s; n8n's log: ${logFile}\n${tail(logFile)}`);
	const mode = /exactly-once mode of the trigger: (.*?)\. n8n internals: /.exec(line)?.[1] ?? line;
	if (mode !== DOCUMENTED_MODE)
		throw new Error(
			`the Payment Gateway Trigger's exactly-once mode is "${mode}", not the documented "${DOCUMENTED_MODE}": payment events would not be handled as documented.\nThe package's line in n8n's log (${logFile}):\n${line}`,
		);
	return mode;
}

module.exports = { DOCUMENTED_MODE, exactlyOnceMode };
