// The queue-mode trigger suite's workflow (the Payment Gateway Trigger → Received) and what it
// leaves: its claims in n8n's Redis, its executions in n8n's PostgreSQL; the checks on a burst.
import { createHash, randomUUID } from 'node:crypto';

import type { Delivery } from './burst';
import { TRIGGER_TYPE, type WorkflowJson } from './n8n';
import { pgQuery, redisCommand } from './queue';
import { link, node } from './queue-mode.cluster';

export const TRIGGER = 'Payment Gateway Trigger';
export const EVENTS_ID = 'qEventsBurst0001';
export const eventsHook = randomUUID();
const TRIGGER_NODE_ID = randomUUID();
/** The trigger's claim of a delivery key in n8n's Redis (exactly-once/redis-store.ts keyFor). */
export const claimKey = (deliveryKey: string) =>
	`n8n:payment-gateway-trigger:${createHash('sha256').update(`${EVENTS_ID}:${TRIGGER_NODE_ID}\u0000${deliveryKey}`).digest('hex')}`;
export const DUPLICATE = '{"received":true,"processed":false,"reason":"duplicate delivery"}';
/** The id of the first execution of the trigger workflow carrying `delivery` (n8n's database). */
export const executionOf = (delivery: Delivery) =>
	pgQuery(
		`SELECT e.id FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
		 WHERE e."workflowId" = '${EVENTS_ID}' AND d.data LIKE '%${JSON.stringify(delivery.key).replace(/'/g, "''")}%'
		 ORDER BY e.id LIMIT 1`,
	);

/** The trigger's workflow: the Payment Gateway Trigger (every event) → Received. */
export const eventsWorkflow = (): WorkflowJson => ({
	id: EVENTS_ID,
	name: 'Queue payment events',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		node(
			TRIGGER,
			TRIGGER_TYPE,
			{ events: ['*'] },
			{
				id: TRIGGER_NODE_ID,
				webhookId: eventsHook,
				credentials: {
					paymentGatewayWebhookApi: {
						id: 'pgExampleWebhook',
						name: 'Payment Gateway Webhook (example)',
					},
				},
			},
		),
		node('Received', 'n8n-nodes-base.noOp', {}),
	],
	connections: link(TRIGGER, 'Received'),
});

/** As a SIGKILLed process leaves its claims: the pending claim expired, its mark of 20 s ago stays. */
export function leaveClaimsUnsettled(list: Delivery[]): void {
	for (const delivery of list) {
		const key = claimKey(delivery.key);
		redisCommand('DEL', key);
		redisCommand('SET', `${key}:since`, String(Date.now() - 20_000), 'PX', '600000');
	}
}

/** No delivery lost, none run twice, no execution without a delivery (the first five named). */
export function expectEachOnce(run: { lost: unknown[]; twice: unknown[]; extra: number }): void {
	expect({ lost: run.lost.slice(0, 5), twice: run.twice.slice(0, 5), extra: run.extra }).toEqual({
		lost: [],
		twice: [],
		extra: 0,
	});
}
