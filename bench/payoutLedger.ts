// The payout ledger's cost with its size: a Bulk Create of new rows (node version 3) whose account's
// ledger already holds many references, against the same run on an account whose ledger is empty,
// in real n8n (`n8n start`: n8n's data tables exist only there, never in `n8n execute`). Two
// payout accounts (two sandboxes answering alike), one workflow each: Webhook → rows → Bulk Create.
// The full ledger is filled through n8n's REST API for data tables; after every run the rows it
// added are deleted again, so each run meets the same ledger. Each round starts a fresh n8n process
// (the first run of each ledger in that process) and then runs both sides warm, alternated.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../test/sandbox';
import { N8n, type Execution, type WorkflowJson } from '../test/e2e/n8n';
import type { Figure } from './figure';
import { PAYOUT_ITEM } from './sheets';
import { atMost, type Row } from './stats';
import { credentialsFor, gateway } from './workflows';

export interface LedgerSizes {
	/** Rows of each run (all new references). */
	ledgerRows: number;
	/** References already in the full ledger. */
	ledgerReferences: number;
	/** Warm runs of each side per round (after the first ones). */
	ledgerWarmRuns: number;
}

type Side = 'full' | 'empty';
const SIDES: Side[] = ['full', 'empty'];
const FILL_CHUNK = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Webhook (responds when the run ends) → `count` payout rows (from the posted body) → Bulk Create v3. */
function workflow(side: Side): WorkflowJson {
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	const count = "$('Webhook').first().json.body.count";
	return {
		id: `benchLedger${side}`,
		name: `Bench payout ledger (${side})`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: `bench-ledger-${side}`, responseMode: 'lastNode', options: {} } },
			{ id: randomUUID(), name: 'Rows', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: `const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);\nreturn Array.from({ length: ${count} }, (_, i) => ({ json: ${PAYOUT_ITEM} }));` } },
			{ id: randomUUID(), name: 'Payouts', position: [400, 0], ...gateway(`ledger${side}`, { resource: 'payout', operation: 'bulkCreate', inputMode: 'items', currency: 'INR', remark: 'Bench' }, 'payout', 3) },
		],
		connections: { Webhook: link('Rows'), Rows: link('Payouts') },
	};
}

/** Queued references of earlier payrolls, as the node writes them. */
function earlierRecords(from: number, count: number) {
	const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
	return Array.from({ length: count }, (_, k) => {
		const i = from + k;
		return {
			reference_no: `EMP-${String(i % 5000).padStart(4, '0')}-M${Math.floor(i / 5000)}`,
			state: 'queued', amount: 25000 + (i % 997), currency: 'INR', beneficiary_name: `Employee ${i % 5000}`, account_last4: String(1000 + (i % 9000)),
			request_id: `n8n-bench-${Math.floor(i / 500)}`, batch_remark: `Salary M${Math.floor(i / 5000)}`, queued_at: at, workflow_id: 'payroll', execution_id: String(Math.floor(i / 5000)),
			utr: null, reason: null, attempt: 1, attempts: null, state_changed_at: at, batch_digest: null,
		};
	});
}

const explain = (error: { message?: string; description?: string } | undefined, status?: string) =>
	error ? `${error.message} (${error.description ?? ''})`.slice(0, 600) : `execution ${status ?? 'not found'}`;

interface Table {
	id: string;
	projectId: string;
	/** Rows with a higher id were added by a measured run. */
	keepUpTo: number;
}

class LedgerBench {
	readonly ms: Record<string, number[]> = {};
	readonly notes: string[] = [];
	private readonly tables = new Map<Side, Table>();

	private constructor(private readonly n8n: N8n, private readonly boxes: Sandbox[], private readonly sizes: LedgerSizes) {}

	static async create(sizes: LedgerSizes): Promise<LedgerBench> {
		const boxes = [await startSandbox({ seed: 21 }), await startSandbox({ seed: 22 })];
		const n8n = await N8n.create();
		await n8n.importCredentials(SIDES.flatMap((side, i) => credentialsFor(`ledger${side}`, boxes[i])));
		await n8n.importWorkflows(SIDES.map(workflow));
		for (const side of SIDES) await n8n.publish(`benchLedger${side}`);
		return new LedgerBench(n8n, boxes, sizes);
	}

	private async start(): Promise<void> {
		await this.n8n.start();
		await this.n8n.waitForWebhooks(SIDES.map((side) => `${this.n8n.baseUrl}/webhook/bench-ledger-${side}`), 'POST', 120_000);
	}

	/** One run of `count` rows; the Bulk Create node's time and its first item. */
	private async run(side: Side, count: number): Promise<{ ms: number; first: Record<string, any> }> {
		const before = new Set((await this.n8n.executions(`benchLedger${side}`)).map((e) => e.id));
		const answer = await fetch(`${this.n8n.baseUrl}/webhook/bench-ledger-${side}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count }) });
		await answer.text();
		let execution: Execution | undefined;
		for (const deadline = Date.now() + 300_000; !execution && Date.now() < deadline; await sleep(300))
			execution = (await this.n8n.executions(`benchLedger${side}`)).find((e) => !before.has(e.id) && ['success', 'error'].includes(e.status));
		const task = execution?.data?.resultData.runData.Payouts?.[0];
		const items = task?.data?.main?.[0] ?? [];
		if (!execution || execution.status !== 'success' || task?.error || items.length !== Math.ceil(count / 500))
			throw new Error(`payout ledger (${side}): ${explain(task?.error ?? execution?.data?.resultData.error, execution?.status)}`);
		return { ms: Number(task.executionTime), first: items[0].json };
	}

	/** Both tables made by a one-row run each, the full one filled, both cut back to what they hold. */
	async setUp(): Promise<void> {
		await this.start();
		for (const side of SIDES) {
			const { first } = await this.run(side, 1);
			const table = first.ledgerTable as { id: string; projectId: string };
			this.tables.set(side, { ...table, keepUpTo: 0 });
		}
		await this.cut('empty');
		const full = this.tables.get('full')!;
		await this.cut('full');
		const path = `/rest/projects/${full.projectId}/data-tables/${full.id}`;
		for (let from = 0; from < this.sizes.ledgerReferences; from += FILL_CHUNK) {
			const data = earlierRecords(from, Math.min(FILL_CHUNK, this.sizes.ledgerReferences - from));
			const added = await this.n8n.rest('POST', `${path}/insert`, { data, returnType: 'count' });
			if (added.status !== 200) throw new Error(`filling the ledger: ${added.status} ${JSON.stringify(added.body).slice(0, 300)}`);
		}
		const last = await this.n8n.rest('GET', `${path}/rows?take=1&sortBy=id:desc`);
		full.keepUpTo = Number(last.body.data.data[0].id);
		if (last.body.data.count !== this.sizes.ledgerReferences) throw new Error(`full ledger holds ${last.body.data.count} rows`);
		const limits = await this.n8n.rest('GET', '/rest/data-tables-global/limits');
		const bytes = Number(limits.body.data?.dataTables?.[full.id]?.sizeBytes);
		if (bytes) this.notes.push(`n8n's own size figure for the full ledger: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${Math.round(bytes / this.sizes.ledgerReferences)} bytes a record (SQLite)`);
		await this.n8n.stop();
	}

	/** Deletes every row a measured run added (the full ledger keeps its references, the empty one none). */
	private async cut(side: Side): Promise<void> {
		const table = this.tables.get(side)!;
		const filter = JSON.stringify({ type: 'and', filters: [{ columnName: 'id', condition: 'gt', value: table.keepUpTo }] });
		const gone = await this.n8n.rest('DELETE', `/rest/projects/${table.projectId}/data-tables/${table.id}/rows?filter=${encodeURIComponent(filter)}`);
		if (gone.status !== 200) throw new Error(`cutting the ${side} ledger back: ${gone.status} ${JSON.stringify(gone.body).slice(0, 300)}`);
	}

	private async measure(side: Side, kind: 'first' | 'warm'): Promise<void> {
		const { ms, first } = await this.run(side, this.sizes.ledgerRows);
		const expected = (side === 'full' ? this.sizes.ledgerReferences : 0) + this.sizes.ledgerRows;
		if (first.ledgerRecords !== expected) throw new Error(`${side} ledger: ledgerRecords ${first.ledgerRecords}, expected ${expected}`);
		(this.ms[`${kind} ${side}`] ??= []).push(ms);
		await this.cut(side);
	}

	/** A fresh n8n process: each ledger's first run in it (order alternated by round), then warm runs alternated. */
	async round(round: number): Promise<void> {
		await this.start();
		try {
			const order = round % 2 ? [...SIDES].reverse() : SIDES;
			for (const side of order) await this.measure(side, 'first');
			for (let i = 0; i < this.sizes.ledgerWarmRuns; i++) for (const side of i % 2 ? order : [...order].reverse()) await this.measure(side, 'warm');
		} finally {
			await this.n8n.stop();
		}
	}

	async dispose(): Promise<void> {
		await this.n8n.dispose();
		for (const box of this.boxes) await box.stop();
	}
}

export function payoutLedgerFigure(sizes: LedgerSizes): Figure {
	let bench: LedgerBench | undefined;
	const { ledgerRows: rows, ledgerReferences: refs } = sizes;
	return {
		key: 'payoutLedger',
		workflows: () => [],
		async round(_n8n, round) {
			if (!bench) {
				bench = await LedgerBench.create(sizes);
				await bench.setUp();
			}
			await bench.round(round);
		},
		rows: (): Row[] => {
			if (!bench) return [];
			const { ms, notes } = bench;
			const what = (kind: string) => `Payout Bulk Create, ${rows.toLocaleString('en')} new rows (node version 3), ledger in n8n's data tables (SQLite) holding ${refs.toLocaleString('en')} references, ${kind}`;
			const note = [`the rows a run adds are deleted after it, so every run meets the same ledger`, ...notes].join('; ');
			return [
				atMost(what('first run of the ledger in a fresh n8n process'), 'the same run, empty ledger (first run in that process)', ms['first full'], ms['first empty'], 'ms', 1.2, note),
				...(ms['warm full'] ? [atMost(what('warm runs'), 'the same run, empty ledger (warm)', ms['warm full'], ms['warm empty'], 'ms', 1.2)] : []),
			];
		},
		async dispose() {
			await bench?.dispose();
		},
	};
}
