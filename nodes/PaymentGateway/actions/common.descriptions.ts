import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Channel } from '../transport';

/**
 * Which channel's keys Order, Payment and Transaction requests use. n8n's editor folds this
 * parameter into the credential selector (picking a credential sets it), and hides every parameter
 * that it depends on, so it has no display conditions but the node version. Invoice Item,
 * Subscription Plan, Payment Link, Payout and Get POS Order pick their credential by resource and
 * operation instead.
 *
 * Version 1 also offered the POS keys here: the editor pre-selects the newest credential of any
 * type named in this parameter, so a POS credential could be chosen for an order, and the order's
 * credential selector then vanished. Version 2 leaves POS out; version 1 keeps it for saved workflows.
 */
const authenticationVersion1: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	displayOptions: { show: { '@version': [1] } },
	options: [
			{
				name: 'Hosted Solution Keys',
				value: 'hosted',
				description: 'Orders, payments and transactions (the usual choice)',
			},
			{
				name: 'S2S (Server-to-Server) Keys',
				value: 's2s',
				description: 'Orders, payments and transactions; the channel for Charge Saved Card',
			},
			{ name: 'SDK/Plugins Keys', value: 'sdk', description: 'Orders, payments and transactions' },
			{ name: 'POS Web API Keys', value: 'pos', description: 'Transaction > Get POS Order' },
		],
	default: 'hosted',
	description:
			"Keys are issued per channel in the merchant dashboard. Invoice Item, Subscription Plan, Payment Link and Payout use their own channel's keys whatever is chosen here.",
};

export const authenticationProperties: INodeProperties[] = [
	authenticationVersion1,
	{
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	displayOptions: { show: { '@version': [2] } },
	options: authenticationVersion1.options?.filter((option) => 'value' in option && option.value !== 'pos'),
	default: 'hosted',
	description:
			"Keys are issued per channel in the merchant dashboard. Get POS Order, Invoice Item, Subscription Plan, Payment Link and Payout use their own channel's keys whatever is chosen here.",
	},
];

const CHANNEL_NAMES: Record<string, string> = {
	hosted: 'Hosted Solution Keys',
	s2s: 'S2S (Server-to-Server) Keys',
	sdk: 'SDK/Plugins Keys',
	pos: 'POS Web API Keys',
};

/** The channel of the credential chosen for Order, Payment and Transaction, if this operation can use it. */
export function getChannel(
	ctx: IExecuteFunctions,
	itemIndex: number,
	allowed: Channel[] = ['hosted', 's2s', 'sdk'],
): Channel {
	const channel = ctx.getNodeParameter('authentication', itemIndex, 'hosted') as Channel;
	if (!allowed.includes(channel)) {
		const names = allowed.map((c) => `"${CHANNEL_NAMES[c] ?? c}"`).join(' or ');
		throw new NodeOperationError(ctx.getNode(), `This operation needs a credential of type ${names}`, {
			itemIndex,
			description: `The chosen credential holds "${CHANNEL_NAMES[channel] ?? channel}" keys, which this operation cannot use. Pick another credential in the node's Credential field. Nothing was sent.`,
		});
	}
	return channel;
}

export const MAX_PARALLEL_REQUESTS = 20;

/** Parallel Requests of this run (read once: the run has one item pool and one rate gate). */
export function getParallelRequests(ctx: IExecuteFunctions): number {
	const options = ctx.getNodeParameter('requestOptions', 0, {}) as { parallelRequests?: unknown };
	const given = options.parallelRequests ?? 1;
	const value = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PARALLEL_REQUESTS) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid Parallel Requests must be a whole number from 1 to ${MAX_PARALLEL_REQUESTS} (received ${JSON.stringify(given)})`,
			{ description: 'Nothing was sent to the service.' },
		);
	}
	return value;
}

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			default: 3,
			description:
				'How many times a request is retried, with exponential backoff: every request after HTTP 429 (the service did not act), and after HTTP 5xx, a time-out or a dropped connection only requests that cannot act twice',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			default: 60,
			description: 'Longest Retry-After the node honours; a longer one fails the item instead of waiting',
		},
		{
			displayName: 'Max Total Retry Wait (Seconds)',
			name: 'maxTotalRetryWaitSeconds',
			type: 'number',
			default: 300,
			description:
				'Longest time spent waiting across all retries of one request; a retry that would pass it fails the item instead',
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			default: 1,
			description:
				'How many items may have a request in flight at once, for operations that send one request per item. Output keeps the input order. All requests share one rate limit: a 429 pauses them all.',
		},
		{
			displayName: 'Timeout',
			name: 'timeoutMs',
			type: 'number',
			default: 30000,
			description: 'How long to wait for the service to answer each request, in milliseconds',
		},
	],
};
