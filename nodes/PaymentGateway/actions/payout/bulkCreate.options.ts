import type { FieldGroup, Violation } from '../../fields/types';
import { optionsOf } from '../../fields/types';
import { VERSION_3_ON } from '../bulk';
import { DEFAULT_REMEMBERED } from './bulkCreate.memory';

const NEW = VERSION_3_ON;

/** Bulk Create's Options: the file, and in new nodes what the memory of queued references does. */
export const optionsGroup: FieldGroup = optionsOf([
	{
		name: 'fileName',
		displayName: 'File Name',
		type: 'text',
		description:
			'Name of the uploaded file; default payouts-&lt;request ID&gt;.xlsx. In batches, -&lt;batch number&gt; is added.',
	},
	{
		name: 'outputBinaryField',
		displayName: 'Put Output File in Field',
		type: 'text',
		description:
			'The binary field that receives the .xlsx file sent (or, with Validate Only, that would be sent)',
		ui: { default: 'data' },
	},
	{
		name: 'payAgain',
		displayName: 'Pay Again',
		type: 'boolean',
		description:
			'Whether rows whose Reference No this node already queued are paid once more, as the attempt set in Attempt (new nodes only). Each reference is paid once per attempt: left on, the next run pays nobody again and fails. Off, they are left out and listed.',
		ui: { displayOptions: { show: NEW } },
	},
	{
		name: 'payAgainAttempt',
		displayName: 'Attempt',
		type: 'number',
		integer: true,
		min: 2,
		description:
			'Which payment of each reference Pay Again makes: 2 for the second, 3 for a third. A reference is paid once per attempt: to pay once more after attempt 2, set 3.',
		ui: { default: 2, displayOptions: { show: { ...NEW, payAgain: [true] } } },
	},
	{
		name: 'payFailedAgain',
		displayName: 'Pay Failed Again',
		type: 'boolean',
		description:
			"Whether rows whose payment failed, was rejected or reversed (the service's results in the payout ledger) are paid once more, each as its next attempt (new nodes only). Queued and processed ones are never paid by it, only listed: left on, the next run pays nobody again and fails. Needs n8n's data tables. Not together with Pay Again.",
		ui: { displayOptions: { show: NEW } },
	},
	{
		name: 'unconfirmedReferences',
		displayName: 'Unconfirmed References',
		type: 'options',
		description:
			'Rows an earlier run sent without learning whether the service queued them (n8n stopped, or no clear answer came back), whose batch has changed since (new nodes only). Look them up in the payout dashboard first.',
		options: [
			{
				name: 'Stop and List Them',
				value: 'stop',
				description: 'Send nothing and name them (the safe choice)',
			},
			{
				name: 'Count as Queued',
				value: 'countAsQueued',
				description: 'They were paid: remember them as queued, do not send them',
			},
			{
				name: 'Send Again',
				value: 'sendAgain',
				description: 'They were not paid: send them with the other new rows',
			},
		],
		ui: { default: 'stop', displayOptions: { show: NEW } },
	},
	{
		name: 'rememberedReferences',
		displayName: 'Remembered References',
		type: 'number',
		integer: true,
		min: 1,
		description:
			'How many references the node may remember (new nodes only). It never forgets one on its own: a run that would pass this stops before sending, and says so.',
		ui: { default: DEFAULT_REMEMBERED, displayOptions: { show: NEW } },
	},
	{
		name: 'attachBatchFiles',
		displayName: 'Attach Batch Files',
		type: 'boolean',
		description:
			'Whether each batch item carries its .xlsx file in Put Output File in Field. Off, no file is kept after its batch is sent (older nodes without Split Into Batches always attach it).',
	},
]);

/** Pay Again and Pay Failed Again choose the attempt each in its own way: one at a time. */
export function repaymentViolations(options: Record<string, unknown> = {}): Violation[] {
	if (options.payAgain !== true || options.payFailedAgain !== true) return [];
	return [
		{
			field: 'payFailedAgain',
			displayName: 'Options > Pay Failed Again',
			rule: 'cannot be on together with Options > Pay Again: choose one (Pay Failed Again pays only failed, rejected or reversed references; Pay Again pays every queued one as the attempt set in Attempt)',
			value: true,
		},
	];
}
