import { readTable, toWire } from '../../fields/read';
import { assertValid } from '../../fields/violations';
import { doneAfterLostAnswer, sendWrite } from '../lostAnswer';
import { tableOperation } from '../operation';
import { refusesRepeat } from '../tool';
import { DEACTIVATE_LINK_PATH } from '../paths';

/** POST /payment-links/v1/deactivate {data_id}: the link takes no new payments. */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'paymentLink',
	option: {
		name: 'Deactivate',
		value: 'deactivate',
		description: 'Stop a payment link from taking new payments',
		action: 'Deactivate a payment link',
	},
	table: [
		{
			name: 'dataId',
			displayName: 'Data ID',
			type: 'text',
			wire: 'data_id',
			required: true,
			description:
				"The data_id of the payment link (from the link's record in the merchant dashboard or its creation). No new payments can start on a deactivated link; payments in progress are unaffected.",
		},
	],
	facts: refusesRepeat('the service answers a repeat with E0021 "already deactivated"'),
	tool: "Deactivates a payment link so it can no longer be paid. Needs the link's data_id.",
	run: async (ctx, itemIndex, table, facts) => {
		const { values, violations } = readTable(ctx, itemIndex, table);
		assertValid(ctx, itemIndex, violations);
		const body = toWire(table, values);
		const dataId = String(body.data_id);
		const response = await sendWrite(
			ctx,
			itemIndex,
			{
				channel: 'paymentLink',
				method: 'POST',
				path: DEACTIVATE_LINK_PATH,
				body,
				// A repeat leaves the link deactivated and is answered E0021 "already deactivated".
				retrySafe: facts.retried,
				howToCheck: 'check the payment links in the merchant dashboard',
				codes: { E0021: 'The payment link does not exist or is already deactivated.' },
				explainFailure: (failure) =>
					failure.code === 'E0021'
						? {
								description: `No active payment link has data_id "${dataId}": it does not exist, is already deactivated or has expired.`,
							}
						: undefined,
				confirmDuplicate: (failure) =>
					failure.code === 'E0021'
						? doneAfterLostAnswer(
								{ data_id: dataId, deactivated: true, message: failure.message },
								'The answer to the first attempt was lost; the node sent it again and the service answered E0021 (not found or already deactivated), read as deactivated by the first attempt. A wrong data_id is answered the same way: if the link still takes payments, check its data_id.',
							)
						: undefined,
			},
			{
				message: "The deactivation's answer was lost and no later attempt settled it",
				how: "An attempt's answer was lost and no later attempt settled it. Deactivating again is safe: it deactivates the link, or answers E0021 when it is already deactivated.",
			},
		);
		if (response.lostAnswer) return [{ json: response, pairedItem: { item: itemIndex } }];
		return [
			{
				json: { data_id: dataId, deactivated: true, message: response.message },
				pairedItem: { item: itemIndex },
			},
		];
	},
});
