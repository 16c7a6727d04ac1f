import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getChannel } from '../PaymentGateway/actions/channel';
import { requestOptionsProperty } from '../PaymentGateway/actions/common.descriptions';
import { rangeViolations } from '../PaymentGateway/actions/transaction/list.filters';
import { tableProperties } from '../PaymentGateway/fields/properties';
import { readTable, toWire } from '../PaymentGateway/fields/read';
import type { Channel, NodeContext } from '../PaymentGateway/transport';
import { nodeParameter } from '../PaymentGateway/helpers/context';
import { assertValid } from '../PaymentGateway/fields/violations';
import { PAYMENT_EVENTS } from '../webhook/events';
import { settingsTable } from './fields';

export const properties: INodeProperties[] = [
	{
		displayName:
			'Checks the transaction list at the Poll Times set in this panel and starts the workflow once for each new transaction and each status change. No public URL is needed. Each poll reads every transaction of the look-back window, 100 per request.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'Hosted Solution Keys', value: 'hosted', description: 'The usual choice' },
			{ name: 'S2S (Server-to-Server) Keys', value: 's2s' },
			{ name: 'SDK/Plugins Keys', value: 'sdk' },
		],
		default: 'hosted',
		description: "Which channel's keys read the transaction list",
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{ name: 'Any Event', value: '*', description: 'Every new transaction and status change' },
			...PAYMENT_EVENTS,
		],
		default: ['*'],
		required: true,
		description:
			'The events that start the workflow, named as the Payment Gateway Trigger names them. Card Tokenized is never seen here: the list shows a tokenization as an authorization.',
	},
	...tableProperties(settingsTable),
	{
		...requestOptionsProperty,
		options: (requestOptionsProperty.options ?? []).filter(
			(option) => option.name !== 'parallelRequests',
		),
	},
];

export interface PollSettings {
	channel: Channel;
	events: string[];
	lookBackDays: number;
	/** The filters as query parameters of the list. */
	query: IDataObject;
}

/** Reads and checks the node's parameters; nothing is sent when one breaks a rule. */
export function readSettings(ctx: NodeContext): PollSettings {
	const channel = getChannel(ctx, 0);
	const events = nodeParameter(ctx, 'events', 0, ['*']);
	if (!Array.isArray(events) || events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event under Events', {
			description: 'Nothing was sent to the service.',
		});
	}
	const { values, violations } = readTable(ctx, 0, settingsTable);
	const query = toWire(settingsTable, values);
	violations.push(...rangeViolations(query));
	assertValid(ctx, 0, violations);
	return {
		channel,
		events: events.map(String),
		lookBackDays: values.lookBackDays as number,
		query,
	};
}
