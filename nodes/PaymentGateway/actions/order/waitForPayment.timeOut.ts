/**
 * The time-out turn of Order > Wait for Payment. Where n8n offers the door's "time-out look", n8n
 * runs this node again when the wait limit passes (instead of passing its input on output 0), and
 * the node reads the order once more: paid or failed by then → Paid or Failed (`source: 'lookup'`);
 * still open → Timed Out with the status read now. Elsewhere n8n's time-out stays as it was: the
 * Timed Out item set up before waiting, with the status read when the wait began.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { n8nInternals } from '../../../n8n-internals';
import { LAST_LOOK_KEY, lastLookValue, type LookedOutcome } from '../../../webhook/last-look';
import { finalOutcome } from '../../../webhook/outcome';
import { asNodeError } from '../errorItem';
import { lookedUpJson, lookUpOrder } from './waitForPayment.lookup';
import { routed } from './waitForPayment.outcome';
import { registerTimeOutTurn, runIndexOf } from '../timeOutTurns';

/** Node context key: the wait this node set up, kept with the waiting execution by n8n. */
export const TIME_OUT_NOTE = 'paymentGatewayTimeOutTurn';

interface Note {
	orderId: string;
	/** The node's run that waits: n8n drops that run at time-out, so the turn has the same index. */
	runIndex: number;
	waitTill: string;
}

const isNote = (value: unknown): value is Note =>
	typeof value === 'object' &&
	value !== null &&
	typeof (value as Note).orderId === 'string' &&
	typeof (value as Note).runIndex === 'number';

// Its time-out turn: a waiting Wait for Payment node that noted its wait runs again at time-out.
registerTimeOutTurn({
	resource: 'order',
	operation: 'waitForPayment',
	noted: (context) => isNote(context?.[TIME_OUT_NOTE]),
});

/** Before waiting: what tells the time-out turn apart from any other run of the node. */
export function noteWait(ctx: IExecuteFunctions, orderId: string, waitTill: Date): void {
	const note: Note = { orderId, runIndex: runIndexOf(ctx), waitTill: waitTill.toISOString() };
	ctx.getContext('node')[TIME_OUT_NOTE] = note;
}

/** The wait's note when this run is its time-out turn (the same run, the Timed Out item on input). */
export function timeOutTurn(ctx: IExecuteFunctions): Note | undefined {
	const note = ctx.getContext('node')[TIME_OUT_NOTE] as unknown;
	if (!isNote(note) || note.runIndex !== runIndexOf(ctx)) return undefined;
	const items = ctx.getInputData();
	const json = items[0]?.json;
	if (items.length !== 1 || json?.outcome !== 'timedOut') return undefined;
	return String(json.p_order_id) === note.orderId ? note : undefined;
}

/**
 * Kept in the execution's custom data, and written to n8n's database at once where n8n offers it:
 * n8n saves custom data only after it marked the execution finished, and the trigger reads it as
 * soon as it sees the execution finished.
 */
async function recordLastLook(ctx: IExecuteFunctions, value: string): Promise<void> {
	try {
		ctx.customData.set(LAST_LOOK_KEY, value);
	} catch {
		// n8n keeps at most 10 custom data values per execution: the write below still counts.
	}
	try {
		const customData = await n8nInternals.executionCustomData();
		const executionId = ctx.getExecutionId();
		if (customData.found && executionId)
			await customData.use.write(executionId, LAST_LOOK_KEY, value);
	} catch (error) {
		ctx.logger.warn(
			`Payment Gateway, Wait for Payment: the last look's outcome could not be written at once; n8n saves it when the execution ends (${(error as Error).message})`,
		);
	}
}

const LAST_LOOK_FAILED =
	'Wait for Payment read the order once more at the wait limit and could not: nothing left on Timed Out, Paid or Failed, so no reminder went to a customer who may have paid. Check the order with Transaction > Get. A payment after now starts the workflow of the Payment Gateway Trigger at the Late Status Trigger URL, where the order has one.';

/** The time-out turn: one more read of the order decides Paid, Failed or Timed Out. */
export async function lastLook(
	ctx: IExecuteFunctions,
	note: Note,
): Promise<INodeExecutionData[][]> {
	const [item] = ctx.getInputData();
	// Paired with this run's one input item, the Timed Out item the wait set up.
	const pairedItem = { item: 0 };
	let order: IDataObject | undefined;
	try {
		order = await lookUpOrder(ctx, note.orderId);
	} catch (error) {
		// The service's error as it is (a NodeApiError with its code), saying what it means here.
		const failure = asNodeError(ctx, error, 0);
		failure.description = LAST_LOOK_FAILED;
		throw failure;
	}
	const status = order?.status;
	const known = order ? finalOutcome(status, status) : undefined;
	const looked: LookedOutcome = known ?? 'timedOut';
	await recordLastLook(ctx, lastLookValue(looked, note.orderId));
	if (known && order) return routed(known, { json: lookedUpJson(ctx, known, order), pairedItem });
	const json: IDataObject = {
		...item.json,
		order_status: status ?? item.json.order_status,
		statusReadAt: new Date().toISOString(),
	};
	return routed('timedOut', { json, pairedItem });
}
