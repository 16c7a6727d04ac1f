// The trigger passing a late status on to a waiting execution (late-status.ts): when that execution's wait has
// ended, its Wait for Payment may have taken the order itself by its last look at the wait limit;
// then the trigger's workflow does not run it again as a late payment.
import { EventEmitter } from 'node:events';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { N8nInternalsError, type ExecutionCustomData } from '../../../nodes/n8n-internals';
import { passLateStatus } from '../../../nodes/PaymentGatewayTrigger/late-status';
import { fakeDoor } from '../n8n-internals/fake-door';

const RESUME = 'http://localhost:5678/webhook-waiting/41?signature=abc';
let workflow = 0;

/** One delivery of `payload` passed on; n8n answers the resume URL: finished already. */
async function pass(payload: IDataObject, customData?: ExecutionCustomData | Error) {
	const response = Object.assign(new EventEmitter(), {
		headersSent: false,
		statusCode: 200,
		sent: undefined as unknown,
		status(code: number) {
			response.statusCode = code;
			return response;
		},
		set: () => response,
		json(body: unknown) {
			response.sent = body;
			return response;
		},
	});
	const warnings: string[] = [];
	const ctx = {
		getNode: () => ({ id: 'trigger-1', name: 'Trigger' }),
		getWorkflow: () => ({ id: `wf-late-status-${workflow}` }),
		getResponseObject: () => response,
		logger: { warn: (m: string) => warnings.push(m), info: () => {}, error: () => {} },
		helpers: {
			httpRequest: async () => ({
				statusCode: 409,
				body: { code: 409, message: 'The execution "41 has finished already.' },
			}),
		},
	} as unknown as IWebhookFunctions;
	const door = fakeDoor({ executionCustomData: customData });
	const answered = await passLateStatus(
		ctx,
		RESUME,
		payload,
		{},
		{ duplicateWindowMinutes: 60 },
		door,
	);
	response.emit('finish');
	return { answered, status: response.statusCode, sent: response.sent, warnings };
}

const paid = { p_order_id: '7', status: 'SUCCESS', order_status: 'CAPTURED' };
const failed = { p_order_id: '7', status: 'FAILED', order_status: 'FAILED' };
const lastLook = (value?: string): ExecutionCustomData => ({
	read: async (executionId, key) =>
		executionId === '41' && key === 'paymentGatewayLastLook' ? value : undefined,
	write: async () => undefined,
});
const HANDLED = { webhookResponse: { received: true, processed: false, reason: 'order handled' } };

beforeEach(() => (workflow += 1));

describe('a final status for an execution whose wait ended', () => {
	test('its last look took this order and outcome: "order handled", nothing runs, a copy neither', async () => {
		expect((await pass(paid, lastLook('paid:7'))).answered).toEqual(HANDLED);
		expect((await pass(paid, lastLook('paid:7'))).answered).toEqual(HANDLED);
		expect((await pass(failed, lastLook('failed:7'))).answered).toEqual(HANDLED);
	});

	test("the wait timed out, took another outcome or another order, or nothing tells: the trigger's workflow runs", async () => {
		for (const look of [
			lastLook('timedOut:7'),
			lastLook('failed:7'),
			lastLook('paid:8'),
			lastLook(),
			// Outside n8n (no execution custom data): as before, the trigger's workflow runs.
			undefined,
		]) {
			workflow += 1; // a trigger that has not seen this order yet
			expect((await pass(paid, look)).answered).toBeUndefined();
		}
	});

	test('how the wait ended cannot be read now: 503, so the service delivers it again', async () => {
		const busy: ExecutionCustomData = {
			read: async () => {
				throw new N8nInternalsError(
					'execution custom data',
					'fault',
					'n8n 9.9.9',
					'Database is not ready!',
				);
			},
			write: async () => undefined,
		};
		const first = await pass(paid, busy);
		expect([first.answered, first.status, first.sent]).toEqual([
			{ noWebhookResponse: true },
			503,
			{ message: 'How the wait for this order ended could not be read; deliver it again' },
		]);
		expect(first.warnings.join('\n')).toMatch(/Database is not ready!/);
		// Nothing was remembered of it: the service's retry is judged again.
		expect((await pass(paid, lastLook('paid:7'))).answered).toEqual(HANDLED);
	});

	test('a changed n8n is answered 503 too, never run unchecked', async () => {
		const changed = new N8nInternalsError('execution custom data', 'changed', 'n8n 9.9.9', 'x');
		expect((await pass(paid, changed)).status).toBe(503);
	});
});
