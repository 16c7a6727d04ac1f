// Anchors run in their own Node process, so time and peak RSS are theirs alone. Prints one JSON
// line: { ms, baseRssMb, peakRssMb }. Usage:
//   node bench/anchor.js fetch <url> <perpage> <merchantKey> <merchantSecret> [query]   every page, parsed, kept
//   node bench/anchor.js require workflow|node                                 cold require time
//   node bench/anchor.js xlsx-write <rows> <columns> | xlsx-read <file>         exceljs alone
const { performance } = require('node:perf_hooks');
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
const peakMb = () => process.resourceUsage().maxRSS / 1024;

/** A bare loop over the list pages a Return All reads: page 1, 2, … until total_records are in. */
async function fetchLoop([url, perpage, key, secret, query]) {
	const records = [];
	for (let page = 1; ; page++) {
		const response = await fetch(`${url}?${query ? `${query}&` : ''}page=${page}&perpage=${perpage}`, {
			headers: { 'merchant-key': key, 'merchant-secret': secret },
		});
		const body = await response.json();
		const data = Array.isArray(body.data) ? body.data : [];
		for (const record of data) records.push(record);
		if (data.length === 0 || records.length >= Number(body.total_records)) break;
	}
	return records.length;
}

function coldRequire([what]) {
	require('n8n-workflow');
	if (what === 'node') require(resolve(ROOT, 'dist/nodes/PaymentGateway/PaymentGateway.node.js'));
	if (require.cache[require.resolve('exceljs')]) throw new Error('exceljs was loaded by a cold require');
	return 0;
}

/** The cells a 500-row sheet from items holds: a header row, then text and number cells. */
async function xlsxWrite([rows, columns]) {
	const ExcelJS = require('exceljs');
	const workbook = new ExcelJS.Workbook();
	const sheet = workbook.addWorksheet('Sheet1');
	sheet.addRow(Array.from({ length: Number(columns) }, (_, c) => `Column ${c + 1}`));
	for (let r = 0; r < Number(rows); r++) {
		sheet.addRow(Array.from({ length: Number(columns) }, (_, c) => (c % 3 === 0 ? r * 10 + c : `Value ${r}-${c}`)));
	}
	return (await workbook.xlsx.writeBuffer()).byteLength;
}

async function xlsxRead([file]) {
	const ExcelJS = require('exceljs');
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.load(readFileSync(file));
	const rows = [];
	workbook.worksheets[0].eachRow((row) => rows.push(row.values));
	return rows.length;
}

const MODES = { fetch: fetchLoop, require: coldRequire, 'xlsx-write': xlsxWrite, 'xlsx-read': xlsxRead };

async function main() {
	const [mode, ...args] = process.argv.slice(2);
	const run = MODES[mode];
	if (!run) throw new Error(`unknown anchor ${mode}`);
	// exceljs is loaded inside the timed part: the node loads it lazily in each fresh n8n process too.
	const baseRssMb = rssMb();
	const started = performance.now();
	const count = await run(args);
	const ms = performance.now() - started;
	console.log(JSON.stringify({ ms, count, baseRssMb, peakRssMb: peakMb() }));
}

main().catch((error) => {
	console.error(error.stack || String(error));
	process.exit(1);
});
