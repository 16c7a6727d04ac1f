import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PollHarness, PollRound } from '../harness';
import { startPollWorkflow } from '../harness';
import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { sandboxCredentials } from './support';
import { windowDays } from '../../nodes/PaymentGatewayPollTrigger/window';
import { manage, olderAuthorised, paidOrder } from './transaction-changes';

/**
 * The poll trigger against the sandbox, run as n8n 2.41 runs an active poller: changes made over
 * the service's API between polls, each starting one execution; restarts that keep only the static
 * data n8n saved.
 */
const POLLER = 'n8n-nodes-payment-gateway.paymentGatewayPollTrigger';
// The generated transactions span 2026: a year-long window holds older ones to change.
const WINDOW = 366;

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 21, transactionCount: 300 });
});
afterAll(async () => await sandbox.stop());

async function poller(
	parameters: INodeParameters = {},
	staticData?: IDataObject,
): Promise<PollHarness> {
	return await startPollWorkflow(
		{
			staticData,
			nodes: [
				{
					name: 'Poll Trigger',
					type: POLLER,
					parameters: { lookBackDays: WINDOW, ...parameters },
					credentials: { paymentGatewayHostedApi: { id: 'paymentGatewayHostedApi' } },
				},
			],
			connections: {},
		},
		{ credentials: sandboxCredentials(sandbox) },
	);
}

/** Each execution's one item: [event, transaction_id, order_status, action]. */
const started = (round: PollRound) =>
	round.executions.map((items) => {
		expect(items).toHaveLength(1);
		const json = items[0].json;
		return [json.event, json.transaction_id, json.order_status, json.action];
	});

it('first activation emits no history; polls without changes start nothing; what it keeps is compact', async () => {
	const trigger = await poller();
	expect((await trigger.activate()).executions).toEqual([]);
	expect((await trigger.poll()).executions).toEqual([]);
	expect((await trigger.poll()).executions).toEqual([]);
	const memory = trigger.saved['node:Poll Trigger'] as IDataObject;
	const ids = Object.values(memory.t as IDataObject).flatMap((list) => String(list).split(','));
	expect(ids.sort()).toEqual(sandbox.state.transactions.map((t) => t.transaction_id).sort());
	// An id and a comma per transaction, plus one name per status and week.
	const groups = Object.keys(memory.t as IDataObject);
	expect(groups.every((group) => /^[A-Z_]+ \d{4}-\d{2}-\d{2}$/.test(group))).toBe(true);
	expect(JSON.stringify(memory).length).toBeLessThan(ids.length * 11 + groups.length * 30 + 200);
});

it('a new payment, capture, partial refund, full refund and the void of an older transaction: one execution each', async () => {
	const trigger = await poller();
	await trigger.activate();

	const sale = await paidOrder(sandbox, 80);
	expect(started(await trigger.poll())).toEqual([
		['payment_captured', sale.transactionId, 'CAPTURED', 'SALE'],
	]);

	const auth = await paidOrder(sandbox, 50, 'AUTH');
	expect(started(await trigger.poll())).toEqual([
		['payment_authorised', auth.transactionId, 'AUTHORISED', 'AUTH'],
	]);

	await manage(sandbox, 'CAPTURE', auth.transactionId, 50);
	expect(started(await trigger.poll())).toEqual([
		['payment_captured', auth.transactionId, 'CAPTURED', 'CAPTURE'],
	]);

	await manage(sandbox, 'REFUND', auth.transactionId, 20);
	expect(started(await trigger.poll())).toEqual([
		['payment_partially_refunded', auth.transactionId, 'PARTIALLY_REFUNDED', 'REFUND'],
	]);
	expect((await trigger.poll()).executions).toEqual([]);

	await manage(sandbox, 'REFUND', auth.transactionId, 30);
	const older = olderAuthorised(sandbox);
	await manage(sandbox, 'VOID', older.transactionId, older.amount, older.currency);
	// Two changes between polls: two executions, the older transaction first (list order reversed).
	const round = await trigger.poll();
	expect(started(round).sort()).toEqual(
		[
			['payment_refunded', auth.transactionId, 'REFUNDED', 'REFUND'],
			['payment_voided', older.transactionId, 'VOID', 'VOID'],
		].sort(),
	);
	expect((await trigger.poll()).executions).toEqual([]);
	expect(trigger.executions).toHaveLength(6);
});

it("items look like the webhook trigger's, with a delivery key of the same form", async () => {
	const trigger = await poller();
	await trigger.activate();
	const sale = await paidOrder(sandbox, 12.5);
	const [[item]] = (await trigger.poll()).executions;
	const record = sandbox.state.transactionsById.get(sale.transactionId)!;
	expect(item.json).toMatchObject({
		action: 'SALE',
		status: 'SUCCESS',
		order_status: 'CAPTURED',
		p_order_id: sale.pOrderId,
		transaction_id: sale.transactionId,
		amount: '12.50',
		currency: 'AED',
		customer_details: { m_customer_id: record.m_customer_id },
		payment_method_data: { mask_card_number: record.payment_method_data.masked_pan },
		transaction_time: record.transaction_date,
		event: 'payment_captured',
		deliveryKey: `${sale.transactionId}|SALE|SUCCESS|CAPTURED|${record.transaction_date}`,
		statusKey: `${sale.transactionId}|CAPTURED`,
		previous_status: null,
		source: 'poll',
	});
	expect(item.json.transaction_time_iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});

it('a restart between polls neither repeats nor misses: only what n8n saved comes back', async () => {
	const trigger = await poller();
	await trigger.activate();
	const first = await paidOrder(sandbox, 11);
	expect(started(await trigger.poll())).toEqual([
		['payment_captured', first.transactionId, 'CAPTURED', 'SALE'],
	]);
	// Polls without changes save nothing: the database keeps the state of the last execution.
	expect((await trigger.poll()).executions).toEqual([]);

	const second = await paidOrder(sandbox, 12, 'AUTH');
	trigger.restart();
	expect(started(await trigger.activate())).toEqual([
		['payment_authorised', second.transactionId, 'AUTHORISED', 'AUTH'],
	]);
	expect((await trigger.poll()).executions).toEqual([]);

	await manage(sandbox, 'VOID', second.transactionId, 12);
	trigger.restart();
	expect(started(await trigger.poll())).toEqual([
		['payment_voided', second.transactionId, 'VOID', 'VOID'],
	]);
	trigger.restart();
	expect((await trigger.poll()).executions).toEqual([]);
});

it('a poll that fails part-way remembers nothing, so the next poll starts the change once; a 429 is waited out', async () => {
	const trigger = await poller();
	await trigger.activate();
	const sale = await paidOrder(sandbox, 14);
	// Page 2 of 3 answers a failure body (not retried): the poll fails as a whole.
	sandbox.faults.inject({ kind: 'bodyFail', path: '/orders/v1/transaction-list', after: 1 });
	await expect(trigger.poll()).rejects.toThrow();
	expect(trigger.executions).toEqual([]);
	sandbox.faults.inject({
		kind: 'status429',
		path: '/orders/v1/transaction-list',
		after: 1,
		retryAfter: 0,
	});
	const before = sandbox.requests.length;
	expect(started(await trigger.poll())).toEqual([
		['payment_captured', sale.transactionId, 'CAPTURED', 'SALE'],
	]);
	// Three pages and the one repeat after the 429.
	expect(sandbox.requests.length - before).toBe(
		Math.ceil(sandbox.state.transactions.length / 100) + 1,
	);
});

it('Events: an unselected change starts nothing, even after a restart', async () => {
	const trigger = await poller({ events: ['payment_refunded', 'payment_partially_refunded'] });
	await trigger.activate();
	const auth = await paidOrder(sandbox, 40, 'AUTH');
	await trigger.poll();
	await manage(sandbox, 'CAPTURE', auth.transactionId, 40);
	expect((await trigger.poll()).executions).toEqual([]);
	trigger.restart();
	expect((await trigger.poll()).executions).toEqual([]);
	await manage(sandbox, 'REFUND', auth.transactionId, 40);
	expect(started(await trigger.poll())).toEqual([
		['payment_refunded', auth.transactionId, 'REFUNDED', 'REFUND'],
	]);
});

it('Filters: only matching transactions are read; other filters or a longer window emit no history', async () => {
	const usd = await poller({ filters: { currencyCode: 'USD' } });
	await usd.activate();
	await paidOrder(sandbox, 9);
	expect((await usd.poll()).executions).toEqual([]);
	const asked = sandbox.requests.filter((r) => r.path === '/orders/v1/transaction-list').at(-1)!;
	expect(asked.query).toMatchObject({ currency_code: 'USD', perpage: '100' });

	// The workflow saved again without the filter: a new baseline, not every other currency as new.
	const all = await poller({}, usd.saved);
	expect((await all.activate()).executions).toEqual([]);
	// A window of one day grown to a year: the older transactions are history, not news.
	const short = await poller({ lookBackDays: 1 });
	await short.activate();
	const long = await poller({}, short.saved);
	expect((await long.activate()).executions).toEqual([]);
	const sale = await paidOrder(sandbox, 9);
	expect(started(await long.poll())).toEqual([
		['payment_captured', sale.transactionId, 'CAPTURED', 'SALE'],
	]);
});

it('a test run returns the newest transaction of the window and remembers nothing', async () => {
	const trigger = await poller();
	await paidOrder(sandbox, 15);
	const result = await trigger.testRun();
	// The window ends today: the generated year's later dates are not test events.
	const endOfToday = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000;
	const newest = sandbox.state.transactions.find((t) => t.internal.time < endOfToday)!;
	expect(result?.[0].map((item) => item.json.transaction_id)).toEqual([newest.transaction_id]);
	expect(
		(await poller({ events: ['payment_voided'] }).then((t) => t.testRun()))?.[0][0].json
			.order_status,
	).toBe('VOID');
	expect(trigger.saved).toEqual({});
});

it('a look-back window out of range is refused before anything is sent', async () => {
	const trigger = await poller({ lookBackDays: 400 });
	const before = sandbox.requests.length;
	await expect(trigger.activate()).rejects.toThrow(
		'Invalid Look-Back Window (Days) must be at most 366 (received 400)',
	);
	expect(sandbox.requests.length).toBe(before);
});

it.each([
	['1.5', 'must be a whole number'],
	['  ', 'is required'],
	['-1', 'must be at least 0'],
	['={{ "a week" }}', 'must be a plain number (no currency symbol, commas or spaces)'],
])(
	'a look-back window of %p is refused by name before anything is sent',
	async (lookBackDays, rule) => {
		const trigger = await poller({ lookBackDays });
		const before = sandbox.requests.length;
		await expect(trigger.activate()).rejects.toThrow(`Invalid Look-Back Window (Days) ${rule}`);
		expect(sandbox.requests.length).toBe(before);
	},
);

it('a look-back window given as text reads as its number', async () => {
	const trigger = await poller({ lookBackDays: '={{ "2" }}' });
	await trigger.activate();
	const asked = sandbox.requests.filter((r) => r.path === '/orders/v1/transaction-list').at(-1)!;
	expect(asked.query.from_date).toBe(windowDays('UTC', 2, Date.now()).since);
});
