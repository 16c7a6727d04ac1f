import type { IDataObject } from 'n8n-workflow';

import type { FieldValues } from '../../fields/read';
import type { FieldList, Violation } from '../../fields/types';
import { KEYED_VALUE_KEYS } from './fields';

/** custom_data has beta … epsilon for recipients. */
export const MAX_SPLIT_RECIPIENTS = 4;

export interface SplitRecipient {
	splitId: string;
	type: 'P' | 'F';
	value: number;
}

export const splitRecipientsList: FieldList = {
	group: 'list',
	name: 'splitRecipients',
	displayName: 'Split Recipients',
	entry: 'recipient',
	entryDisplayName: 'Recipient',
	buttonText: 'Add Recipient',
	required: true,
	label: 'split recipients',
	description: `Up to ${MAX_SPLIT_RECIPIENTS} sub-accounts and their shares`,
	fields: [
		{
			name: 'splitId',
			displayName: 'Split ID',
			label: 'split ID',
			type: 'text',
			required: true,
			pattern: { regex: /^[^|,]+$/, rule: 'must be an ID without | or ,' },
			description: 'The split ID the service operator assigned to the sub-account',
		},
		{
			name: 'type',
			displayName: 'Type',
			label: 'type',
			type: 'options',
			required: true,
			caseInsensitive: true,
			options: [
				{ name: 'Percentage', value: 'P', description: 'A percentage of the order amount' },
				{ name: 'Flat', value: 'F', description: 'A flat amount in the order currency' },
			],
		},
		{
			name: 'value',
			displayName: 'Value',
			label: 'value',
			type: 'number',
			required: true,
			above: 0,
			description: 'The percentage (up to 100 in total) or the flat amount',
		},
	],
};

/** Split rules across recipients: 1–4 of them, percentages up to 100, flat amounts within the order. */
export function splitViolations(
	recipients: SplitRecipient[],
	amount: number | undefined,
): Violation[] {
	const violations: Violation[] = [];
	const add = (field: string, rule: string, value: unknown) =>
		violations.push({ field, rule, value });
	if (recipients.length > MAX_SPLIT_RECIPIENTS) {
		add(
			'split recipients',
			`may list at most ${MAX_SPLIT_RECIPIENTS} (custom_data beta to epsilon)`,
			recipients.length,
		);
	}
	const sum = (type: SplitRecipient['type']) =>
		recipients
			.filter((r) => r.type === type && typeof r.value === 'number')
			.reduce((total, r) => total + r.value, 0);
	const percent = sum('P');
	const flat = sum('F');
	if (percent > 100) add('split percentages', 'must not add up to more than 100', percent);
	if (amount !== undefined) {
		if (flat > amount)
			add('split flat amounts', `must not add up to more than the order amount (${amount})`, flat);
		const allocated = (amount * percent) / 100 + flat;
		if (percent <= 100 && flat <= amount && allocated > amount + 1e-9) {
			add(
				'split recipients',
				`must not share out more than the order amount (${amount})`,
				allocated,
			);
		}
	}
	return violations;
}

export const recipientsOf = (values: FieldValues) =>
	(values.splitRecipients ?? []) as unknown as SplitRecipient[];

/** custom_data for a split: alpha `|SPLIT_PAYMENT`, then one `|{id},{type},{value}` per recipient. */
export function encodeSplitCustomData(recipients: SplitRecipient[]): IDataObject[] {
	const [, ...recipientKeys] = KEYED_VALUE_KEYS;
	return [
		{ alpha: '|SPLIT_PAYMENT' },
		...recipientKeys.map((key, i) => {
			const r = recipients[i];
			return { [key]: r ? `|${r.splitId},${r.type},${r.value}` : '' };
		}),
	];
}
