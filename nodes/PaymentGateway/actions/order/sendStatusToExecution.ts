import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unsafeUrlReason } from '../../../../credentials/shared/url';
import type { FieldValues } from '../../fields/read';
import type { Field, Violation } from '../../fields/types';
import { lateStatusUrl } from '../../../webhook/late-status';

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

/**
 * Late Status: the production URL of a Payment Gateway Trigger. The order's webhook URL is then that
 * trigger, carrying this execution's resume URL (webhook/late-status.ts); the trigger passes each
 * status on to the waiting execution, and runs its own workflow with a late one, that comes after
 * the wait ended (PaymentGatewayTrigger/late-status.ts).
 */
export const lateStatusUrlField: Field = {
	name: 'lateStatusUrl',
	displayName: 'Late Status Trigger URL',
	type: 'webhookUrl',
	description:
		"Production URL of a published Payment Gateway Trigger (recommended). The order's status then goes to that trigger, which passes it on to this execution while it waits; a late status (a final one after the wait ended, such as a payment after Timed Out) starts the trigger's workflow instead, once, marked late. Left empty, such a payment reaches no workflow.",
	ui: {
		placeholder: 'https://n8n.example.com/webhook/…/payment-gateway',
		displayOptions: { show: { sendStatusToThisExecution: [true] } },
	},
};

/** Both fields, in the order the panel shows them. */
export const statusDeliveryFields: Field[] = [sendStatusToExecutionField, lateStatusUrlField];

/**
 * The execution's note that its order's status comes through a trigger (its Late Status Trigger
 * URL): Wait for Payment then waits even for an order already paid, since the trigger delivers that
 * status.
 */
export const LATE_STATUS_NOTE = 'paymentGatewayLateStatusUrl';

/** The Late Status Trigger URL this execution's order was created with, or '' (none, or not known). */
export function lateStatusUrlOf(ctx: Pick<IExecuteFunctions, 'customData'>): string {
	try {
		return String(ctx.customData?.get(LATE_STATUS_NOTE) ?? '');
	} catch {
		return '';
	}
}

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
	const late = String(values[lateStatusUrlField.name] ?? '');
	data.urls = { ...urls, webhook_url: late ? lateStatusUrl(late, resumeUrl) : resumeUrl };
	// customData keeps at most 255 characters a value; the URL is only shown, never followed.
	if (late) ctx.customData?.set(LATE_STATUS_NOTE, late.slice(0, 255));
	return [];
}
