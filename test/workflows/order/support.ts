import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { HarnessNode } from '../../harness';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { GATEWAY, requestsTo, runGateway } from '../support';

export const CREATE = '/orders/v1/create';

export const EMPTY_KEYED = [
	{ alpha: '' },
	{ beta: '' },
	{ gamma: '' },
	{ delta: '' },
	{ epsilon: '' },
];

/** A sandbox for one order test file, cleared before each test. */
export function orderSandbox(seed: number) {
	const box = { sandbox: undefined as unknown as Sandbox };
	beforeAll(async () => {
		box.sandbox = await startSandbox({ seed });
	});
	afterAll(async () => await box.sandbox.stop());
	beforeEach(() => {
		box.sandbox.faults.clear();
		box.sandbox.clearRequests();
	});
	const runOrder = (
		operation: string,
		parameters: IDataObject,
		extra: { items?: object[]; continueOnFail?: boolean; credentialType?: string } = {},
	) =>
		runGateway(box.sandbox, {
			...extra,
			parameters: { resource: 'order', operation, ...(parameters as INodeParameters) },
		});
	/** The body the sandbox received for the n-th create request. */
	const sentData = (n = 0) =>
		JSON.parse(requestsTo(box.sandbox, CREATE)[n].body.toString()).data as IDataObject;
	return { box, runOrder, sentData };
}

export const WEBHOOK_CREDENTIAL = 'paymentGatewayWebhookApi';
const ref = (type: string) => ({ [type]: { id: type, name: type } });

/** Order > Wait for Payment ("Gateway") for `orderId`, two hours, with the hosted and webhook credentials. */
export function waitForPaymentNode(orderId: string, more: IDataObject = {}): HarnessNode {
	return {
		name: 'Gateway',
		type: GATEWAY,
		parameters: {
			resource: 'order',
			operation: 'waitForPayment',
			orderId,
			waitLimit: 2,
			waitLimitUnit: 'hours',
			...(more as INodeParameters),
		},
		credentials: { ...ref('paymentGatewayHostedApi'), ...ref(WEBHOOK_CREDENTIAL) },
	};
}
