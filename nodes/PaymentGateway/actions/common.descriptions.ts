import type { INodeProperties } from 'n8n-workflow';

import { REQUEST_OPTIONS } from '../transport';

/**
 * Which channel's keys Order, Payment and Transaction requests use. n8n's editor folds this
 * parameter into the credential selector (picking a credential sets it), and hides every parameter
 * that it depends on, so it has no display conditions but the node version. Invoice Item,
 * Subscription Plan, Payment Link, Payout and Get POS Order pick their credential by resource and
 * operation instead.
 *
 * Version 1 also offered the POS keys here: the editor pre-selects the newest credential of any
 * type named in this parameter, so a POS credential could be chosen for an order, and the order's
 * credential selector then vanished. Versions 2 and 3 leave POS out; version 1 keeps it for saved workflows.
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
		displayOptions: { show: { '@version': [2, 3] } },
		options: authenticationVersion1.options?.filter(
			(option) => 'value' in option && option.value !== 'pos',
		),
		default: 'hosted',
		description:
			"Keys are issued per channel in the merchant dashboard. Get POS Order, Invoice Item, Subscription Plan, Payment Link and Payout use their own channel's keys whatever is chosen here.",
	},
];

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: Object.entries(REQUEST_OPTIONS).map(([name, option]) => ({
		displayName: option.displayName,
		name,
		type: 'number',
		default: option.default,
		description: option.description,
	})),
};
