import type { IExecuteFunctions } from 'n8n-workflow';

import { assertWaitsHere } from '../waitEngine';

export const NOT_IN_THIS_N8N =
	'Wait for Payment is not available in this n8n: it resumes a waiting node on its first output only, so a payment would be lost instead of leaving on Paid or Failed';

export const NOT_IN_THIS_N8N_HELP =
	'Nothing waits and nothing was sent. Upgrade n8n to a release that resumes waiting nodes on every output (see the compatibility table in the documentation), or use the Payment Gateway Trigger with the order ID to continue when the final status arrives.';

/** Refuses to wait, before anything is sent, where n8n would drop the Paid and Failed outputs. */
export async function assertResumesOnEveryOutput(ctx: IExecuteFunctions): Promise<void> {
	await assertWaitsHere(ctx, { message: NOT_IN_THIS_N8N, description: NOT_IN_THIS_N8N_HELP });
}
