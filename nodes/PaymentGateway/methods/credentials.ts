import type { INodeCredentialDescription } from 'n8n-workflow';

import { description as transactionDescription } from '../actions/transaction/Transaction.resource';

const CHANNEL_RESOURCES = ['order', 'payment', 'transaction'];

/** Every Transaction operation but Get POS Order, read from the resource's own operation list. */
const transactionOperationsWithoutPos = (): string[] =>
	(transactionDescription.find((p) => p.name === 'operation')?.options ?? [])
		.map((o) => String((o as { value: unknown }).value))
		.filter((value) => value !== 'getPosOrder');

/**
 * Which credential the editor shows, and the engine accepts, for each resource and operation.
 *
 * n8n's editor offers, in one selector, every credential type whose conditions name the
 * `authentication` parameter, pre-selects the newest credential among them and sets
 * `authentication` from the type picked. So only the three order channels name it, and exactly
 * one selector shows for every resource and operation:
 * - Order, Payment, Transaction: Hosted, S2S or SDK (one selector for the three). `pos` is listed
 *   with Hosted so that a version-1 node saved with the POS keys on an order shows a selector
 *   from which a working credential can be picked.
 * - Transaction > Get POS Order: POS only, by a `hide` on the other operations (a `show` on
 *   `operation` would make the editor hide Resource and Operation).
 * - The other resources: their own channel, by resource.
 */
export const credentials: INodeCredentialDescription[] = [
	{
		name: 'paymentGatewayHostedApi',
		required: true,
		testedBy: 'testHostedCredential',
		displayOptions: {
			show: { authentication: ['hosted', 'pos'], resource: CHANNEL_RESOURCES },
			hide: { operation: ['getPosOrder'] },
		},
	},
	{
		name: 'paymentGatewayS2sApi',
		required: true,
		testedBy: 'testS2sCredential',
		displayOptions: {
			show: { authentication: ['s2s'], resource: CHANNEL_RESOURCES },
			hide: { operation: ['getPosOrder'] },
		},
	},
	{
		name: 'paymentGatewaySdkApi',
		required: true,
		testedBy: 'testSdkCredential',
		displayOptions: {
			show: { authentication: ['sdk'], resource: CHANNEL_RESOURCES },
			hide: { operation: ['getPosOrder'] },
		},
	},
	{
		name: 'paymentGatewayPosApi',
		required: true,
		testedBy: 'testPosCredential',
		displayOptions: {
			show: { resource: ['transaction'] },
			hide: { operation: transactionOperationsWithoutPos() },
		},
	},
	...(
		[
			['paymentGatewayInvoiceApi', 'testInvoiceCredential', 'invoiceItem'],
			['paymentGatewaySubscriptionApi', 'testSubscriptionCredential', 'subscriptionPlan'],
			['paymentGatewayPaymentLinkApi', 'testPaymentLinkCredential', 'paymentLink'],
			['paymentGatewayPayoutApi', 'testPayoutCredential', 'payout'],
		] as const
	).map(([name, testedBy, resource]) => ({
		name,
		required: true,
		testedBy,
		displayOptions: { show: { resource: [resource] } },
	})),
];
