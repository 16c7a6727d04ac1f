import type { IWebhookFunctions } from 'n8n-workflow';

import { readTable } from '../PaymentGateway/fields/read';
import type { FieldGroup } from '../PaymentGateway/fields/types';
import { optionsOf } from '../PaymentGateway/fields/types';
import { describeViolation } from '../PaymentGateway/fields/violations';
import type { ItemlessContext } from '../PaymentGateway/helpers/context';

/**
 * The trigger's Options, declared once: the editor property and the reader come from this table,
 * so a yes/no given as text by an expression ("false") reads as it says, as in the action node.
 */
export const optionsGroup: FieldGroup = optionsOf([
	{
		name: 'dropDuplicates',
		displayName: 'Drop Duplicate Deliveries',
		type: 'boolean',
		description:
			'Whether to drop a delivery of a status change already received (same transaction_id, action, status, order_status and transaction_time). The service retries deliveries it thinks failed.',
		ui: { default: true },
	},
	{
		name: 'duplicateWindowMinutes',
		displayName: 'Duplicate Window (Minutes)',
		type: 'number',
		min: 1,
		description:
			"How long a delivery is remembered: in this n8n process's memory or, in queue mode, in n8n's Redis (shared by every process). In regular mode n8n's database also keeps each delivery for this window, across restarts.",
		ui: { typeOptions: { minValue: 1 }, default: 1440 },
	},
	{
		name: 'includeHeaders',
		displayName: 'Include Headers',
		type: 'boolean',
		description:
			'Whether to add the request headers to the output, without notification-secret, authorization, cookies, API keys or other credential headers',
	},
]);

export interface TriggerOptions {
	dropDuplicates: boolean;
	duplicateWindowMinutes: number;
	includeHeaders: boolean;
}

/** The options of this delivery, or the broken rules in words (nothing starts then). */
export function readOptions(ctx: IWebhookFunctions): TriggerOptions | { invalid: string } {
	// readTable reads parameters only; a webhook context has one value per parameter.
	const { values, violations } = readTable(ctx as unknown as ItemlessContext, 0, [optionsGroup]);
	if (violations.length > 0) {
		return { invalid: `Invalid ${violations.map(describeViolation).join('; ')}` };
	}
	const options = values.options as Partial<TriggerOptions>;
	return {
		dropDuplicates: options.dropDuplicates !== false,
		duplicateWindowMinutes: options.duplicateWindowMinutes ?? 1440,
		includeHeaders: options.includeHeaders === true,
	};
}
