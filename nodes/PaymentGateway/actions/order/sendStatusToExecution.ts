import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unsafeUrlReason } from '../../../../credentials/shared/url';
import type { FieldValues } from '../../fields/read';
import type { Field, Violation } from '../../fields/types';

/**
 * "Send the final status to this execution": the order's webhook URL becomes this execution's
 * resume URL, so a later Order > Wait for Payment node is resumed by the service's delivery.
 */
export const sendStatusToExecutionField: Field = {
	name: 'sendStatusToThisExecution',
	displayName: 'Send Final Status to This Execution',
	type: 'boolean',
	description:
		"Whether the service delivers the order's final status to this execution (its resume URL becomes the order's webhook URL), for a later Order > Wait for Payment node. Leave Webhook URL empty.",
	ui: { default: false },
};

const LABEL = sendStatusToExecutionField.displayName;

/** The resume URL without its token, for messages. */
const withoutToken = (url: string) => url.replace(/([?&]signature=)[^&]*/i, '$1…');

/**
 * Sets urls.webhook_url to this execution's resume URL when asked; returns the rules broken.
 * The resume URL carries its token in the query string; the service must keep it intact.
 */
export function applyStatusDelivery(
	ctx: IExecuteFunctions,
	itemIndex: number,
	values: FieldValues,
	data: IDataObject,
): Violation[] {
	if (values[sendStatusToExecutionField.name] !== true) return [];
	const urls = (data.urls ?? {}) as IDataObject;
	const given = urls.webhook_url;
	if (typeof given === 'string' && given !== '') {
		return [{ field: 'urls.webhook_url', rule: `must be empty when ${LABEL} is on`, value: given }];
	}
	const resumeUrl = String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex) ?? '');
	const unsafe = resumeUrl === '' ? 'is empty' : unsafeUrlReason(resumeUrl);
	if (unsafe !== undefined) {
		return [
			{
				field: LABEL,
				rule: `needs n8n's resume URL to be https:// (http:// only for localhost); set n8n's WEBHOOK_URL to its public https:// address`,
				value: withoutToken(resumeUrl),
			},
		];
	}
	data.urls = { ...urls, webhook_url: resumeUrl };
	return [];
}
