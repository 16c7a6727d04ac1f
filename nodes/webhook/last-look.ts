/**
 * What Wait for Payment's last look at the wait limit found, kept in the execution's custom data
 * (`$execution.customData`, shown with the execution in n8n): `<outcome>:<p_order_id>`. The Payment
 * Gateway Trigger reads it when a status reaches it for an execution whose wait has ended, so an
 * order the last look took on Paid or Failed does not also run the trigger's workflow as late.
 */
export const LAST_LOOK_KEY = 'paymentGatewayLastLook';

export type LookedOutcome = 'paid' | 'failed' | 'timedOut';

export const lastLookValue = (outcome: LookedOutcome, orderId: string) => `${outcome}:${orderId}`;
