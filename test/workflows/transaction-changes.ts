// Changes to the sandbox's transaction list, made over its HTTP API as a merchant (and a customer
// paying on the hosted page) would make them: for the poll trigger's tests, here and in real n8n.
import type { Sandbox } from '../sandbox';
import { orderData } from '../sandbox/testClient';

const merchantHeaders = (sandbox: Sandbox) => ({
	'content-type': 'application/json',
	'merchant-key': sandbox.keys.hosted.merchantKey,
	'merchant-secret': sandbox.keys.hosted.merchantSecret,
});

async function post(
	url: string,
	headers: Record<string, string>,
	body: unknown,
): Promise<Record<string, any>> {
	const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
	const answer = (await response.json()) as Record<string, any>;
	if (response.status !== 200 || answer.status === 'failed')
		throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
	return answer;
}

/** A hosted order, paid on the hosted page: a SALE ends CAPTURED, an AUTH with MANUAL capture AUTHORISED. */
export async function paidOrder(
	sandbox: Sandbox,
	amount: number,
	action: 'SALE' | 'AUTH' = 'SALE',
): Promise<{ pOrderId: string; transactionId: string }> {
	const data = orderData({ action, ...(action === 'AUTH' && { capture_method: 'MANUAL' }) });
	data.order_details.amount = amount;
	const created = await post(`${sandbox.baseUrl}/orders/v1/create`, merchantHeaders(sandbox), {
		data,
	});
	const pOrderId = String(created.p_order_id);
	const completed = await post(
		`${sandbox.baseUrl}/__sandbox/orders/${pOrderId}/complete`,
		{ 'content-type': 'application/json' },
		{ outcome: 'pay' },
	);
	return { pOrderId, transactionId: String(completed.order.transaction_id) };
}

/** Capture, void or refund over the manage-payment endpoint. */
export async function manage(
	sandbox: Sandbox,
	action: 'CAPTURE' | 'VOID' | 'REFUND',
	transactionId: string,
	value: number,
	currencyCode = 'AED',
) {
	return await post(`${sandbox.baseUrl}/orders/v1/transaction`, merchantHeaders(sandbox), {
		action,
		transaction_id: transactionId,
		amount: { currencyCode, value },
	});
}

/** A generated transaction still AUTHORISED, made days before today: an older one inside a long window. */
export function olderAuthorised(
	sandbox: Sandbox,
	days = 2,
): { transactionId: string; amount: number; currency: string } {
	const before = Date.now() - days * 86_400_000;
	const record = sandbox.state.transactions.find(
		(t) =>
			t.status === 'AUTHORISED' &&
			t.internal.time < before &&
			!sandbox.state.orders.has(t.p_order_id),
	);
	if (!record) throw new Error('the sandbox has no older AUTHORISED transaction');
	return {
		transactionId: record.transaction_id,
		amount: Number(record.amount),
		currency: record.currency,
	};
}
