// Prints the compatibility table (release × feature) from a test:compat run's files in
// .tools/compat/: <version>.jest.json (jest --json), <version>.times.json, <version>.keep-alive.json.
// `node test/compat/table.js <version>...`; also writes .tools/compat/table.md.
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const { FEATURES } = require('./features');

const DIR = resolve(__dirname, '../../.tools/compat');
const read = (name) =>
	existsSync(join(DIR, name)) ? JSON.parse(readFileSync(join(DIR, name), 'utf8')) : undefined;

/** The releases of versions.txt whose roles include oldest or newest (the range's ends). */
function ends() {
	const lines = readFileSync(resolve(__dirname, 'versions.txt'), 'utf8').split('\n');
	return lines
		.map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
		.filter(([version, roles]) => version && /(^|,)(oldest|newest)(,|$)/.test(roles ?? ''))
		.map(([version]) => version);
}

/**
 * pass / FAIL / not available (its tests skip: not in this n8n) / not run, for one feature of one
 * release; "ends only" for a feature run on the oldest and newest releases only.
 */
function verdict(results, feature, version) {
	if (feature.ends && version && !ends().includes(version.split('@')[0])) return 'ends only';
	if (!results) return 'not run';
	const pattern = new RegExp(feature.test);
	const tests = results.testResults
		.filter((file) => file.name.endsWith(`/${feature.file}`))
		.flatMap((file) => file.assertionResults)
		.filter((test) => pattern.test(test.fullName));
	if (tests.length === 0) return 'not run';
	if (tests.some((t) => t.status === 'failed')) return 'FAIL';
	if (tests.every((t) => t.status === 'passed')) return 'pass';
	if (tests.every((t) => t.status !== 'passed')) return 'not available';
	return 'pass (part not available)';
}

function table(versions) {
	// "1.123.81@node20": that release with n8n on Node.js 20; otherwise on Node.js 24.
	const header = ['Feature', ...versions.map((v) => v.replace(/@node(\d+)$/, ' (Node.js $1)'))];
	const rows = FEATURES.map((f) => [
		f.title,
		...versions.map((v) => verdict(read(`${v}.jest.json`), f, v)),
	]);
	const figure = (v) => {
		const k = read(`${v}.keep-alive.json`);
		return k ? `${k.connections} for ${k.requests} requests` : '—';
	};
	const time = (v) => {
		const t = read(`${v}.times.json`);
		if (!t) return '—';
		return t.fullSuites ? 'in the full suites' : `${t.install} s + ${t.run} s`;
	};
	rows.push(['Keep-alive: connections (figure)', ...versions.map(figure)]);
	rows.push(['Install + run (s)', ...versions.map(time)]);
	const line = (cells) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

if (require.main === module) {
	const versions = process.argv.slice(2);
	const text = table(versions);
	writeFileSync(join(DIR, 'table.md'), text + '\n');
	console.log(text);
	const failed = versions.some((v) => {
		const r = read(`${v}.jest.json`);
		return !r || r.numFailedTests > 0 || r.numRuntimeErrorTestSuites > 0;
	});
	process.exitCode = failed ? 1 : 0;
}

module.exports = { table, verdict };
