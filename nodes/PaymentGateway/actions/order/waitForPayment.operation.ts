import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { readTable } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import { finalOutcome } from '../../../webhook/outcome';
import { lateStatusUrlOf } from './sendStatusToExecution';
import { routed, timedOutJson, WAIT_OUTPUTS } from './waitForPayment.outcome';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { waitLimitFields, waitMsOf } from '../waitLimit';
import { runPausing } from '../waitRun';
import { noteUnsignedResumeUrl } from './waitForPayment.resumeUrl';
import { assertResumesOnEveryOutput } from './waitForPayment.engine';
import type { OperationOption } from '../operation';
import { lookedUpJson, lookUpOrder } from './waitForPayment.lookup';
import { lastLook, noteWait, timeOutTurn } from './waitForPayment.timeOut';
import { armTimeOutLook } from '../timeOutTurns';

export const option = {
	name: 'Wait for Payment',
	value: 'waitForPayment',
	description: 'Pause this execution until the order is paid or fails, or the wait limit passes',
	action: 'Wait for a payment',
} as const satisfies OperationOption;

const show = { resource: ['order'], operation: [option.value] };

const notice: INodeProperties = {
	displayName:
		'Create the order with "Send Final Status to This Execution" on, send its payment link anywhere, then wait here. Outputs: Timed Out (no final status within the wait limit), Paid (paid, authorised or card saved), Failed.',
	name: 'waitForPaymentNotice',
	type: 'notice',
	default: '',
};

export const table: FieldTable = [
	{
		name: 'orderId',
		displayName: 'Order ID',
		type: 'text',
		required: true,
		description:
			"The service's order ID (p_order_id) that Create Payment, Authorize, Save Card or Create Split Payment returned, in this execution",
		ui: { default: '={{ $json.p_order_id }}' },
	},
	...waitLimitFields('How long to wait for the final status before the Timed Out output'),
];

export const facts = { kind: 'wait' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Waits until the order created earlier in this workflow is paid, fails or the time limit passes. It pauses the whole workflow.',
	facts,
);

export const description = updateDisplayOptions({ show }, [notice, ...tableProperties(table)]);

function readSettings(ctx: IExecuteFunctions): { orderId: string; waitMs: number } {
	const { values, violations } = readTable(ctx, 0, table);
	const { waitMs, violations: extra } = waitMsOf(values);
	assertValid(ctx, 0, [...violations, ...extra]);
	return { orderId: String(values.orderId), waitMs };
}

/**
 * Paid (or failed) before the wait began: its delivery may already have been refused as "execution
 * running"; the order's own status decides at once. Not when the status comes through a Payment
 * Gateway Trigger: the trigger holds it until this execution waits, and would run its own workflow
 * with it after this one ended, so deciding here could fulfil an order twice.
 */
function routedAtOnce(
	ctx: IExecuteFunctions,
	order: IDataObject,
	lateStatusUrl: string,
): INodeExecutionData[][] | undefined {
	const known = lateStatusUrl ? undefined : finalOutcome(order.status, order.status);
	if (!known) return undefined;
	return routed(known, { json: lookedUpJson(ctx, known, order), pairedItem: { item: 0 } });
}

async function waitOrRoute(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const turn = timeOutTurn(ctx);
	if (turn) return await lastLook(ctx, turn);
	const items = ctx.getInputData();
	if (items.length !== 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Wait for Payment waits for one order per execution; it received ${items.length} items`,
			{
				description:
					'n8n keeps one wait per execution. Send each order through its own execution, for example one webhook call per order or Execute Workflow with one item each.',
			},
		);
	}
	await assertResumesOnEveryOutput(ctx);
	const { orderId, waitMs } = readSettings(ctx);
	// Checked now: once waiting, a delivery that cannot be checked only gets a 500 until time-out.
	const webhookCredential = await ctx.getCredentials('paymentGatewayWebhookApi', 0);
	if (String(webhookCredential.notificationSecret ?? '') === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Payment Gateway Webhook API credential has no notification secret',
			{
				itemIndex: 0,
				description: 'Deliveries are checked against it. Nothing was sent.',
			},
		);
	}
	const order = await lookUpOrder(ctx, orderId);
	if (!order) {
		throw new NodeOperationError(ctx.getNode(), `No order with Order ID ${orderId}`, {
			itemIndex: 0,
			description:
				"Use the p_order_id that the order's create operation returned in this execution.",
		});
	}
	const lateStatusUrl = lateStatusUrlOf(ctx);
	const atOnce = routedAtOnce(ctx, order, lateStatusUrl);
	if (atOnce) return atOnce;
	const waitTill = new Date(Date.now() + waitMs);
	// At time-out n8n runs this node again where it offers the time-out look (its time-out turn
	// reads the order once more), else passes the input items on output 0 without running it: the
	// input becomes the Timed Out item either way (the webhook also reads the awaited order from it).
	await armTimeOutLook();
	noteWait(ctx, orderId, waitTill);
	const waiting: INodeExecutionData = {
		json: timedOutJson(orderId, order, waitTill, items[0].json, lateStatusUrl),
		pairedItem: items[0].pairedItem ?? { item: 0 },
	};
	items.splice(0, items.length, waiting);
	noteUnsignedResumeUrl(ctx);
	await ctx.putExecutionToWait(waitTill);
	// Nothing on any output while waiting: what a waiting node returns is what the canvas shows, and
	// an item on Timed Out would read as a time-out. n8n drops this run when the execution resumes.
	return [[], [], []];
}

/** Order > Wait for Payment: three outputs, so the router runs it whole, outside its item loop. */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPausing(this, {
		name: 'Wait for Payment',
		toolHelp: 'An AI agent cannot wait for a webhook; use it in a workflow.',
		outputs: WAIT_OUTPUTS.length,
		waitOrRoute,
	});
}
