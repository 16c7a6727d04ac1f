import type { INodeProperties } from 'n8n-workflow';

import { VERSION_3_ON, VERSIONS_1_AND_2 } from '../bulk';

const NOTICE_V3 =
	'This moves money out of the merchant account. A payout is known by its Reference No: a row this node already queued is never sent again, whatever else changed (Remark, amount, rows added), and a run in which every row was already queued fails, paying no one. Every row is checked before anything is sent; rows go out in batches of at most 500. To pay a reference again on purpose, give it a new Reference No or use Options > Pay Again.';
const NOTICE_OLD =
	'This node (version 1–2) sends at most 500 rows, and with Request ID empty a random ID: running the same rows again pays everyone again. Turn on Split Into Batches for request IDs computed from the rows, or add a new Payment Gateway node: version 3 always does that, splits more than 500 rows into batches and reports a re-run as already queued.';

/** What Bulk Create says above its parameters: old nodes and new ones differ in what a re-run does. */
export const payoutNotices: INodeProperties[] = [
	{
		displayName: NOTICE_OLD,
		name: 'payoutNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: VERSIONS_1_AND_2 },
	},
	{
		displayName: NOTICE_V3,
		name: 'payoutNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: VERSION_3_ON },
	},
];
