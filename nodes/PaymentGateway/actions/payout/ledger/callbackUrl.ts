/**
 * Bulk Create's Callback URL left empty: the payout account's results address with its token
 * (resultsAddress.ts), when a workflow with the Payout Results Trigger of the account is
 * published; else empty, as before, and the output says results will not be received. The address
 * meets the same rules as a typed Callback URL (the field table's: https, at most 100 characters).
 * The token is shown masked and is redacted from the run's errors (transport/redact.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { coerce } from '../../../fields/coerce';
import type { Field, FieldTable } from '../../../fields/types';
import { addRunSecret } from '../../../transport/redact';
import type { BatchFields } from '../bulkCreate.plan';
import { maskToken, openResultsTable, readHeld, withToken } from './resultsAddress';

const NOT_RECEIVED = 'Results of these payouts will not be received: Callback URL is empty and';
const SET_UP =
	'publish a workflow with the Payment Gateway Payout Results Trigger and this payout credential (its address is then used), or enter a Callback URL';

async function addressOf(ctx: IExecuteFunctions, itemIndex: number) {
	try {
		const opened = await openResultsTable(ctx, itemIndex);
		if ('off' in opened) return { none: `${opened.off}, so there is no results address` };
		const held = await readHeld(opened);
		const address = held.addresses[held.addresses.length - 1];
		if (!address || !held.token) return { none: 'the account has no results address' };
		return { address, token: held.token };
	} catch (error) {
		return { none: `the account's results address cannot be read (${(error as Error).message})` };
	}
}

/**
 * The batch fields with the account's results address as Callback URL when it was left empty,
 * and what the output says about it (`said`). A recorded address that breaks the field's rules
 * stops the run before anything is sent.
 */
export async function withResultsAddress(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	table: FieldTable,
): Promise<BatchFields> {
	if (fields.callbackUrl !== '') return fields;
	const found = await addressOf(ctx, itemIndex);
	if ('none' in found)
		return {
			...fields,
			said: { callbackUrl: '', results: `${NOT_RECEIVED} ${found.none}: ${SET_UP}.` },
		};
	const url = withToken(found.address.url, found.token);
	addRunSecret(ctx, found.token);
	const field = table.find(
		(entry): entry is Field => entry.name === 'callbackUrl' && !('group' in entry),
	);
	const checked = field ? coerce(field, url) : { value: url };
	if ('rule' in checked)
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid Callback URL: the account's results address (workflow ${found.address.workflowId}) ${checked.rule} (received ${maskToken(url)})`,
			{
				itemIndex,
				description: `Nothing was sent. Give the Payout Results Trigger of workflow ${found.address.workflowId} a shorter Path and publish it again, or enter a Callback URL.`,
			},
		);
	return {
		...fields,
		callbackUrl: url,
		form: { ...fields.form, callback_url: url },
		said: {
			callbackUrl: `results address (workflow ${found.address.workflowId})`,
			resultsAddress: maskToken(url),
		},
	};
}
