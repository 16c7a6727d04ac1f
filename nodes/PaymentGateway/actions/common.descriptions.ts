import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Channel } from '../transport';

/**
 * Which channel's keys Order, Payment and Transaction requests use. One top-level parameter with no
 * display conditions: n8n's editor hides every parameter that a credential-selecting parameter's
 * own conditions mention, which would hide Resource and Operation. The other resources have one
 * channel each and pick their credential by resource.
 */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
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
		'Keys are issued per channel in the merchant dashboard. Invoice Item, Subscription Plan, Payment Link and Payout use their own channel\'s keys whatever is chosen here.',
};

const CHANNEL_NAMES: Record<string, string> = {
	hosted: 'Hosted Solution Keys',
	s2s: 'S2S (Server-to-Server) Keys',
	sdk: 'SDK/Plugins Keys',
	pos: 'POS Web API Keys',
};

/** The chosen channel, if this operation can use it. */
export function getChannel(
	ctx: IExecuteFunctions,
	itemIndex: number,
	allowed: Channel[] = ['hosted', 's2s', 'sdk'],
): Channel {
	const channel = ctx.getNodeParameter('authentication', itemIndex, 'hosted') as Channel;
	if (!allowed.includes(channel)) {
		const names = allowed.map((c) => `"${CHANNEL_NAMES[c] ?? c}"`).join(' or ');
		throw new NodeOperationError(ctx.getNode(), `This operation needs ${names} under Authentication`, {
			itemIndex,
			description: `"${CHANNEL_NAMES[channel] ?? channel}" keys cannot be used here. Nothing was sent.`,
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
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How many times a request is retried, with exponential backoff: every request after HTTP 429 (the service did not act), and after HTTP 5xx, a time-out or a dropped connection only requests that cannot act twice',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description: 'Longest Retry-After the node honours; a longer one fails the item instead of waiting',
		},
		{
			displayName: 'Max Total Retry Wait (Seconds)',
			name: 'maxTotalRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 300,
			description:
				'Longest time spent waiting across all retries of one request; a retry that would pass it fails the item instead',
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: 1,
			description:
				'How many items may have a request in flight at once, for operations that send one request per item. Output keeps the input order. All requests share one rate limit: a 429 pauses them all.',
		},
		{
			displayName: 'Timeout',
			name: 'timeoutMs',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for the service to answer each request, in milliseconds',
		},
	],
};
