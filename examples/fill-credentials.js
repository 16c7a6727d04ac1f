#!/usr/bin/env node
// Fills examples/credentials.template.json for `n8n import:credentials`: every "{{path}}" becomes
// the value at that path of a sandbox-shaped object { baseUrl, payoutUrl, keys: { hosted: {
// merchantKey, merchantSecret }, s2s, payout, webhook: { notificationSecret } } } (what
// startSandbox() returns; the same shape for real keys).
//
//   node examples/fill-credentials.js values.json > credentials.json     (or values on stdin)
//   require('./examples/fill-credentials.js').fillCredentials(sandbox)  → the credential entries
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const TEMPLATE = join(__dirname, 'credentials.template.json');

function fillCredentials(values, template = readFileSync(TEMPLATE, 'utf8')) {
	const entries = JSON.parse(template);
	const fill = (text) =>
		text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path) => {
			const value = path.split('.').reduce((at, key) => (at == null ? undefined : at[key]), values);
			if (typeof value !== 'string' || value === '') {
				throw new Error(`credentials template: no value for {{${path}}}`);
			}
			return value;
		});
	const walk = (node) =>
		typeof node === 'string'
			? fill(node)
			: Array.isArray(node)
				? node.map(walk)
				: node && typeof node === 'object'
					? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]))
					: node;
	return walk(entries);
}

module.exports = { fillCredentials, TEMPLATE };

if (require.main === module) {
	const source = process.argv[2] ? readFileSync(process.argv[2], 'utf8') : readFileSync(0, 'utf8');
	process.stdout.write(JSON.stringify(fillCredentials(JSON.parse(source)), null, 2) + '\n');
}
