import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * The outputs of Order > Wait for Payment. n8n decides the first one: when the wait limit passes
 * and n8n does not run the node's time-out turn (waitForPayment.timeOut.ts), it runs neither
 * execute() nor webhook() but passes the node's input items on output 0, so "Timed Out" must be
 * output 0.
 */
export const WAIT_OUTPUTS = ['Timed Out', 'Paid', 'Failed'] as const;

export type WaitOutcome = 'timedOut' | 'paid' | 'failed';

const OUTPUT_INDEX: Record<WaitOutcome, number> = { timedOut: 0, paid: 1, failed: 2 };

/** One item on its outcome's output, nothing on the others. */
export function routed(outcome: WaitOutcome, item: INodeExecutionData): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = WAIT_OUTPUTS.map(() => []);
	outputs[OUTPUT_INDEX[outcome]].push(item);
	return outputs;
}

/**
 * What the time-out branch gets: set up before waiting (where n8n runs nothing of the node at
 * time-out, this is all it has); the time-out turn updates `order_status` and `statusReadAt`.
 */
export function timedOutJson(
	orderId: string,
	order: IDataObject | undefined,
	waitTill: Date,
	input: IDataObject,
	lateStatusUrl: string,
): IDataObject {
	return {
		outcome: 'timedOut',
		message: `No final status arrived for order ${orderId} before ${waitTill.toISOString()}`,
		laterPayment: lateStatusUrl
			? `A payment of this order after now starts the workflow of the Payment Gateway Trigger at ${lateStatusUrl}, once, with late: true.`
			: 'The order was created without a Late Status Trigger URL: a payment of this order after now reaches no workflow. Check the order with Transaction > Get before asking the customer again.',
		p_order_id: orderId,
		m_order_id: order?.m_order_id ?? '',
		order_status: order?.status ?? 'PENDING',
		statusReadAt: new Date().toISOString(),
		waitedUntil: waitTill.toISOString(),
		input,
	};
}
