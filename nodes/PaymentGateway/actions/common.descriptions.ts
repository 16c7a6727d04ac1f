import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Channel } from '../transport';

/** Which channel's keys an order, payment or transaction-list request is sent with. */
export function authenticationProperty(
	show: NonNullable<INodeProperties['displayOptions']>['show'],
	defaultChannel: Channel = 'hosted',
): INodeProperties {
	return {
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'Hosted Solution Keys', value: 'hosted' },
			{ name: 'S2S (Server-to-Server) Keys', value: 's2s' },
			{ name: 'SDK/Plugins Keys', value: 'sdk' },
		],
		default: defaultChannel,
		description: 'Keys are issued per channel in the merchant dashboard; pick the channel whose keys to use',
		displayOptions: { show },
	};
}

export function getChannel(ctx: IExecuteFunctions, itemIndex: number): Channel {
	return ctx.getNodeParameter('authentication', itemIndex, 'hosted') as Channel;
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
				'How many times a request that cannot move money twice is retried after HTTP 429, HTTP 5xx, a time-out or a dropped connection, with exponential backoff',
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
			displayName: 'Timeout',
			name: 'timeoutMs',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for the service to answer each request, in milliseconds',
		},
	],
};

export const simplifyProperty = (show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties => ({
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { show },
});

export const returnAllProperty = (show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties => ({
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
	displayOptions: { show },
});

export const limitProperty = (show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties => ({
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { ...show, returnAll: [false] } },
});
