// The figures of the performance table: what runs in real n8n, against which anchor.
import type { Sandbox } from '../test/sandbox';
import type { WorkflowJson } from '../test/e2e/n8n';
import { anchor, type Figure } from './figure';
import type { Execution } from './n8n';
import { atLeast, atMost, median, type Row } from './stats';
import { benchWorkflow, gateway, httpRequest, itemsCode, type Contender } from './workflows';
import { createPaymentContenders, refundContenders, resetRefundPool } from './payments';
import { ONE_WAY_MS } from './network';
import { payoutBatchesFigure } from './payoutBatches';
import { payoutLedgerFigure, type LedgerSizes } from './payoutLedger';
import { paymentLinkSheetFigure, payoutReadFigure, payoutSheetFigure } from './sheets';
import { pollWindowFigure } from './pollWindow';
import { triggerSpeedFigure } from './triggerSpeed';
import { payoutResultsFigure, RESULTS_FULL, type ResultsSizes } from './payoutResults';

export interface Sizes extends LedgerSizes {
	rounds: number;
	items: number;
	latencyItems: number;
	transactions: number;
	invoiceItems: number;
	httpsTransactions: number;
	pollTransactions: number;
	triggerOne: number;
	triggerBurst: number;
	/** bench/payoutResults.ts (set by --quick). */
	results?: ResultsSizes;
}

export interface Sandboxes {
	/** Answers at once; also the refund pool. */
	zero: Sandbox;
	/** 20 ms added to every request. */
	slow: Sandbox;
	/** Return All: many transactions and invoice items. */
	big: Sandbox;
	/** The `remote` sandbox over HTTPS, 20 ms each way (bench/network.ts). */
	tls: Sandbox;
	/** The poll trigger's window: every generated transaction is in a year-long window. */
	poll: Sandbox;
}

/** The contenders' orders: rotated per round so none always runs first. */
function rotations(key: string, contenders: Contender[]): WorkflowJson[] {
	return contenders.map((_, r) => benchWorkflow(`${key}${r}`, [...contenders.slice(r), ...contenders.slice(0, r)]));
}

/** Times of each contender over the rounds; a failed node stops the run (a fast error is no figure). */
class Samples {
	readonly ms: Record<string, number[]> = {};

	add(execution: Execution, names: string[], expectItems: number): void {
		for (const name of names) {
			const run = execution.nodes[name];
			if (!run || run.error || run.items !== expectItems) {
				throw new Error(`${name}: ${run?.error ?? `gave ${run?.items} items, expected ${expectItems}`}`);
			}
			(this.ms[name] ??= []).push(run.ms);
		}
	}
}

/** Two or three contenders in one workflow, rotated: the ratio of each pair is measured in one run. */
function versus(key: string, contenders: Contender[], expectItems: number, rows: (ms: Record<string, number[]>) => Row[], before?: () => void): Figure {
	const samples = new Samples();
	return {
		key,
		workflows: () => rotations(key, contenders),
		async round(n8n, round) {
			before?.();
			const execution = await n8n.execute(`${key}${round % contenders.length}`);
			samples.add(execution, contenders.map((c) => c.name), expectItems);
		},
		rows: () => rows(samples.ms),
	};
}

const LIST_ONE = { resource: 'transaction', operation: 'getMany', returnAll: false, limit: 1 };

export function figures(boxes: Sandboxes, sizes: Sizes): Figure[] {
	const { items, latencyItems } = sizes;
	const perItem = (values: number[], count: number) => values.map((ms) => (ms * 1000) / count);
	const listOneHttp = (box: Sandbox) => httpRequest(box, { method: 'GET', path: '/orders/v1/transaction-list', query: { page: '1', perpage: '1' } });
	return [
		versus(
			'getMany',
			[
				{ name: 'Payment Gateway', items: itemsCode(items, '{ i }'), node: gateway('zero', LIST_ONE) },
				{ name: 'HTTP Request', items: itemsCode(items, '{ i }'), node: listOneHttp(boxes.zero) },
			],
			items,
			(ms) => [atMost(`${items} items → Transaction Get Many (Limit 1), zero latency`, 'HTTP Request, same GETs', ms['Payment Gateway'], ms['HTTP Request'], 'ms', 1.0)],
		),
		versus(
			'latency',
			[
				{ name: 'Parallel 8', items: itemsCode(latencyItems, '{ i }'), node: gateway('slow', { ...LIST_ONE, requestOptions: { parallelRequests: 8 } }) },
				{ name: 'Sequential', items: itemsCode(latencyItems, '{ i }'), node: gateway('slow', LIST_ONE) },
				{ name: 'HTTP Request', items: itemsCode(latencyItems, '{ i }'), node: listOneHttp(boxes.slow) },
			],
			latencyItems,
			(ms) => [
				atLeast(`${latencyItems} items, 20 ms latency, Parallel Requests 8`, 'the node sequential (Parallel Requests 1)', ms['Parallel 8'], ms['Sequential'], 'ms', 6),
				atMost(`${latencyItems} items, 20 ms latency, Parallel Requests 8`, 'HTTP Request (every request at once)', ms['Parallel 8'], ms['HTTP Request'], 'ms', 1.2),
			],
		),
		versus('create', createPaymentContenders(boxes.zero, items), items, (ms) => [
			atMost('CPU per item: Order → Create Payment, 8 fields mapped by expressions', 'HTTP Request, same body (one JSON template)', perItem(ms['Create Payment'], items), perItem(ms['HTTP Request'], items), 'µs', 1.0),
		]),
		versus(
			'refund',
			refundContenders(boxes.zero, items),
			items,
			(ms) => [
				atMost('CPU per item: Payment → Refund, 4 fields mapped by expressions', 'HTTP Request, same body', perItem(ms['Refund'], items), perItem(ms['HTTP Request'], items), 'µs', 1.0),
			],
			() => resetRefundPool(boxes.zero, items),
		),
		payoutSheetFigure(),
		payoutBatchesFigure(),
		payoutLedgerFigure(sizes),
		paymentLinkSheetFigure(),
		payoutReadFigure(),
		...returnAllFigures(boxes, sizes),
		...httpsFigures(boxes, sizes),
		pollWindowFigure(boxes.poll, sizes.pollTransactions),
		triggerSpeedFigure(sizes),
		payoutResultsFigure(sizes.results ?? RESULTS_FULL),
		coldRequire(sizes),
	];
}

/** The loopback Return All figures. */
function returnAllFigures(boxes: Sandboxes, sizes: Sizes): Figure[] {
	return [
		returnAll(boxes.big, 'big', 'txAll', { resource: 'transaction', operation: 'getMany', returnAll: true }, 'hosted', '/orders/v1/transaction-list', 100, sizes.transactions, `Transaction Return All, ${sizes.transactions} records`, true),
		returnAll(boxes.big, 'big', 'itemAll', { resource: 'invoiceItem', operation: 'getMany', returnAll: true }, 'invoice', '/invoice/v1/items/list', 1000, sizes.invoiceItems, `Invoice Item Return All, ${sizes.invoiceItems} items`, false),
	];
}

/** Return All in n8n against a bare fetch loop over the same pages; peak RSS above each one's start. */
function returnAll(box: Sandbox, boxName: string, key: string, parameters: Record<string, unknown>, channel: 'hosted' | 'invoice', path: string, perpage: number, expect: number, title: string, memory: boolean, limit = 1.3): Figure {
	const samples = { node: [] as number[], loop: [] as number[], nodeMb: [] as number[], loopMb: [] as number[] };
	return {
		key,
		workflows: () => [
			benchWorkflow(key, [{ name: 'Return All', items: itemsCode(1, '{ i }'), node: gateway(boxName, parameters, channel) }]),
		],
		async round(n8n, round) {
			const keys = box.keys[channel];
			const runLoop = async () => {
				const result = await anchor(['fetch', `${box.baseUrl}${path}`, String(perpage), keys.merchantKey, keys.merchantSecret]);
				if (result.count !== expect) throw new Error(`fetch loop got ${result.count} of ${expect}`);
				samples.loop.push(result.ms);
				samples.loopMb.push(result.peakRssMb - result.baseRssMb);
			};
			const runNode = async () => {
				const execution = await n8n.execute(key);
				const run = execution.nodes['Return All'];
				if (run.error || run.items !== expect) throw new Error(`Return All: ${run.error ?? `${run.items} of ${expect}`}`);
				samples.node.push(run.ms);
				samples.nodeMb.push(run.rssGrowthMb);
			};
			if (round % 2) await runLoop().then(runNode);
			else await runNode().then(runLoop);
		},
		rows: () => [
			atMost(title, `a bare ${box.baseUrl.startsWith('https') ? 'keep-alive ' : ''}fetch loop over the same pages (${perpage} per page)`, samples.node, samples.loop, 'ms', limit),
			...(memory
				? [atMost(`${title}: peak RSS`, 'the fetch loop’s peak', samples.nodeMb, samples.loopMb, 'MB', 1.5, 'RSS growth while each ran: n8n’s RSS sampled every 25 ms in the node’s own time window, minus its RSS when the node started; the loop’s peak RSS minus its RSS before the first request')]
				: []),
		],
	};
}

/**
 * Over HTTPS with 20 ms each way: sequential and Parallel Requests 8 items against the HTTP Request
 * node (whose every request opens a connection) and the floor of one round trip (40 ms) per
 * request; Return All against a keep-alive fetch loop.
 */
function httpsFigures(boxes: Sandboxes, sizes: Sizes): Figure[] {
	const count = sizes.latencyItems;
	const rtt = 2 * ONE_WAY_MS;
	const floor = (ms: number[], inFlight: number) => ms.map(() => (Math.ceil(count / inFlight) * rtt));
	const http = httpRequest(boxes.tls, { method: 'GET', path: '/orders/v1/transaction-list', query: { page: '1', perpage: '1' } });
	const where = `${count} items over HTTPS, 20 ms each way`;
	return [
		versus(
			'https',
			[
				{ name: 'Sequential', items: itemsCode(count, '{ i }'), node: gateway('tls', LIST_ONE) },
				{ name: 'Parallel 8', items: itemsCode(count, '{ i }'), node: gateway('tls', { ...LIST_ONE, requestOptions: { parallelRequests: 8 } }) },
				{ name: 'HTTP Request', items: itemsCode(count, '{ i }'), node: http },
				{ name: 'HTTP Request one by one', items: itemsCode(count, '{ i }'), node: http, oneByOne: true },
			],
			count,
			(ms) => [
				// The HTTP Request node has no sequential mode of its own: it starts every item's request at
				// once. Sequential against sequential is HTTP Request behind Loop Over Items (batch size 1).
				atMost(`${where}, Get Many (Limit 1) sequential`, 'HTTP Request one item at a time (Loop Over Items, batch size 1; its runs only)', ms['Sequential'], ms['HTTP Request one by one'], 'ms', 0.5),
				{ ...atMost(`${where}, Get Many (Limit 1) sequential`, `HTTP Request, same GETs (it sends all ${count} at once)`, ms['Sequential'], ms['HTTP Request'], 'ms', Infinity), target: 'none: not sequential', reference: true },
				atMost(`${where}, Get Many (Limit 1), Parallel Requests 8`, 'HTTP Request, same GETs (all at once)', ms['Parallel 8'], ms['HTTP Request'], 'ms', 1.2),
				atMost(`${where}, Get Many (Limit 1) sequential`, `one round trip per request (${count} × ${rtt} ms)`, ms['Sequential'], floor(ms['Sequential'], 1), 'ms', 1.2),
				atMost(`${where}, Get Many (Limit 1), Parallel Requests 8`, `one round trip per 8 requests (${Math.ceil(count / 8)} × ${rtt} ms)`, ms['Parallel 8'], floor(ms['Parallel 8'], 8), 'ms', 1.2),
			],
		),
		returnAll(boxes.tls, 'tls', 'httpsAll', { resource: 'transaction', operation: 'getMany', returnAll: true }, 'hosted', '/orders/v1/transaction-list', 100, sizes.httpsTransactions, `Transaction Return All over HTTPS, 20 ms each way, ${sizes.httpsTransactions} records`, false, 1.2),
	];
}

/** Cold require of the built node over n8n-workflow alone, each in a fresh process, alternated. */
function coldRequire(sizes: Sizes): Figure {
	const alone: number[] = [];
	const withNode: number[] = [];
	return {
		key: 'require',
		workflows: () => [],
		async round() {
			for (let i = 0; i < 3; i++) {
				alone.push((await anchor(['require', 'workflow'])).ms);
				withNode.push((await anchor(['require', 'node'])).ms);
			}
			void sizes;
		},
		rows: () => {
			const row = atMost('cold require of the action node', '`n8n-workflow` alone', withNode, alone, 'ms', Infinity);
			const added = median(withNode) - median(alone);
			return [{ ...row, ratio: added, ratioText: `${added >= 0 ? '+' : ''}${added.toFixed(1)} ms`, target: '≤ 10 ms added', met: added <= 10, note: 'each sample a fresh process; exceljs checked not loaded' }];
		},
	};
}
