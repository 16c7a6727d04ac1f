// Credentials and workflow JSON for the e2e suite, in n8n's import formats.
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../sandbox';
import { GATEWAY_TYPE, TRIGGER_TYPE, type CredentialEntry, type WorkflowJson } from './n8n';

/** The trigger's webhook path (its description's `webhooks[0].path`). */
export const TRIGGER_PATH = 'payment-gateway';

export const CREDENTIAL_IDS = {
	hosted: 'e2eHostedCred01',
	webhook: 'e2eWebhookCred1',
} as const;

/** Credentials pointing at the sandbox; the import encrypts the plain `data`. */
export function sandboxCredentials(sandbox: Sandbox): CredentialEntry[] {
	return [
		{
			id: CREDENTIAL_IDS.hosted,
			name: 'Sandbox Hosted',
			type: 'paymentGatewayHostedApi',
			data: { baseUrl: sandbox.baseUrl, ...sandbox.keys.hosted },
		},
		{
			id: CREDENTIAL_IDS.webhook,
			name: 'Sandbox Webhook',
			type: 'paymentGatewayWebhookApi',
			data: { notificationSecret: sandbox.keys.webhook.notificationSecret },
		},
	];
}

/** A node of a workflow in n8n's import format, on the canvas's first row at `x`. */
export const nodeJson = (
	name: string,
	type: string,
	typeVersion: number,
	x: number,
	parameters: Record<string, unknown>,
) => ({ id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters });

const credentialRef = (type: 'paymentGatewayHostedApi' | 'paymentGatewayWebhookApi') => {
	const entry =
		type === 'paymentGatewayHostedApi'
			? { id: CREDENTIAL_IDS.hosted, name: 'Sandbox Hosted' }
			: { id: CREDENTIAL_IDS.webhook, name: 'Sandbox Webhook' };
	return { [type]: entry };
};

const chain = (names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** Manual Trigger → Payment Gateway (hosted keys) with the given parameters. */
export function manualGatewayWorkflow(
	id: string,
	name: string,
	parameters: Record<string, unknown>,
): WorkflowJson {
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: 'Manual Trigger',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: 'Payment Gateway',
				type: GATEWAY_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { authentication: 'hosted', ...parameters },
				credentials: credentialRef('paymentGatewayHostedApi'),
			},
		],
		connections: chain(['Manual Trigger', 'Payment Gateway']),
	};
}

/** Payment Gateway Trigger → No Operation; the webhookId makes its URL /webhook/<webhookId>/<path>. */
export function triggerWorkflow(id: string, webhookId: string): WorkflowJson {
	return {
		id,
		name: 'E2E payment events',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: 'Payment Gateway Trigger',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['*'] },
				credentials: credentialRef('paymentGatewayWebhookApi'),
			},
			{
				id: randomUUID(),
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: chain(['Payment Gateway Trigger', 'Received']),
	};
}

/** One signed delivery of a captured sale (10.00 AED, new IDs) to a trigger's URL; its status. */
export async function deliverSignedPayment(url: string, secret: string): Promise<number> {
	const id = String(Date.now());
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'notification-secret': secret },
		body: JSON.stringify({
			action: 'SALE',
			status: 'SUCCESS',
			order_status: 'CAPTURED',
			p_order_id: id,
			transaction_id: id,
			amount: '10.00',
			currency: 'AED',
			transaction_time: '29-11-2026 08:00:00',
		}),
	});
	return answer.status;
}
