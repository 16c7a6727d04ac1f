import type { WebhookHarness } from '../harness';
import { ensureProcessedData, processedData, startWebhookWorkflow } from '../harness';
import { n8nInternals } from '../../nodes/n8n-internals';
import {
	claimPersisted,
	releasePersisted,
} from '../../nodes/PaymentGatewayTrigger/exactly-once/list';
import { releaseInMemory } from '../../nodes/PaymentGatewayTrigger/exactly-once/memory';

/** n8n's processed-data list through the door: found once n8n-core's service is set up. */
const processedList = async () => {
	const list = await n8nInternals.processedList();
	if (!list.found) throw new Error(`processed-data list absent: ${list.why}`);
	return list.use;
};

/**
 * The trigger with n8n's processed-data store present, as in n8n (`start`, `webhook` and `worker`
 * initialise it): the harness's store, with 5 ms between its read and its write.
 */
const SECRET = 'persist-secret';
const table = processedData;
table.delayMs = 5;
const scope = { workflowId: 'harness-workflow', nodeId: 'harness-node-1' };
let harness: WebhookHarness;
let transaction = 5_000_000;

const delivery = () => {
	transaction += 1;
	return {
		action: 'SALE',
		status: 'SUCCESS',
		order_status: 'CAPTURED',
		transaction_id: String(transaction),
		transaction_time: '21-05-2025 14:03:07',
	};
};
const send = async (body: object) =>
	await harness.deliver({ headers: { 'notification-secret': SECRET }, body });
const keyOf = (body: { transaction_id: string }) =>
	`${body.transaction_id}|SALE|SUCCESS|CAPTURED|21-05-2025 14:03:07`;

beforeAll(async () => {
	await ensureProcessedData();
});

beforeEach(async () => {
	harness = await startWebhookWorkflow(
		{
			nodes: [
				{
					name: 'Trigger',
					type: 'n8n-nodes-payment-gateway.paymentGatewayTrigger',
					parameters: {},
					credentials: { paymentGatewayWebhookApi: { id: 'webhook' } },
				},
			],
			connections: {},
		},
		{
			credentials: [
				{
					id: 'webhook',
					name: 'Webhook',
					type: 'paymentGatewayWebhookApi',
					data: { notificationSecret: SECRET },
				},
			],
		},
	);
});
afterEach(async () => await harness.stop());

describe("Payment Gateway Trigger with n8n's processed-data store", () => {
	test('a re-send after a restart (process memory empty) is dropped by the stored record', async () => {
		const body = delivery();
		expect((await send(body)).executed).toBe(true);
		expect(table.records.get('harness-workflow|n:harness-node-1')).toBeDefined();

		// What a restart leaves: nothing in memory, the table as it was.
		releaseInMemory(scope, keyOf(body));
		const again = await send(body);

		expect(again).toMatchObject({
			status: 200,
			executed: false,
			body: { reason: 'duplicate delivery' },
		});
		expect(harness.executions).toHaveLength(1);
	});

	test('50 distinct claims at once in one process: every one recorded (none overwrites another)', async () => {
		const service = await processedList();
		const concurrent = { workflowId: 'concurrent-workflow', nodeId: 'node-1' };
		const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
		const claim = async (key: string) =>
			await claimPersisted(service, concurrent, 'Trigger', key, 10_000);

		const calls = table.calls;
		expect(await Promise.all(keys.map(claim))).toEqual(keys.map(() => true));
		expect(table.records.get('concurrent-workflow|n:node-1')).toHaveLength(50);
		// One read and one write of the key list for the whole burst.
		expect(table.calls - calls).toBe(1);
		expect(await Promise.all(keys.map(claim))).toEqual(keys.map(() => false));
	});

	test('keys claimed while a call runs share the next call; a removal is never overtaken', async () => {
		const service = await processedList();
		const burst = { workflowId: 'burst-workflow', nodeId: 'node-1' };
		const claim = async (key: string) =>
			await claimPersisted(service, burst, 'Trigger', key, 10_000);
		expect(await claim('answered-with-error')).toBe(true);

		const calls = table.calls;
		const first = claim('first');
		// n8n answered that delivery with an error: its record goes, and the retry must run.
		const removed = releasePersisted(service, burst, 'Trigger', 'answered-with-error');
		const retry = claim('answered-with-error');
		const later = ['a', 'b', 'c'].map(claim);
		expect(await Promise.all([first, retry, ...later])).toEqual([true, true, true, true, true]);
		await removed;
		// 'first' alone, then the retry with the three later keys.
		expect(table.calls - calls).toBe(2);
	});

	test('when the store fails: an error answer, and the service’s retry is not dropped', async () => {
		const body = delivery();
		table.failNext = 1;
		const failed = await send(body);
		// Answered by the node itself: no failed execution is started for it.
		expect(failed.status).toBe(503);
		expect(JSON.stringify(failed.body)).toMatch(/recorded in n8n's database.*deliver it again/);
		expect(JSON.stringify(failed.body)).toMatch(/processed-data list .* database is locked/);
		expect(harness.executions).toHaveLength(0);

		const retried = await send(body);
		expect(retried).toMatchObject({ status: 200, executed: true });
		expect(harness.executions[0].outputs.Trigger[0].json.deliveryKey).toBe(keyOf(body));
	});
});
