import { nodeOutputs } from '../nodeOutputs';

describe('the node outputs as n8n evaluates them', () => {
	const outputsFor = (parameters: Record<string, string>) => nodeOutputs(parameters, 1);

	it('three named outputs for Wait for Payment, Timed Out first (where n8n passes items on time-out)', () => {
		expect(outputsFor({ resource: 'order', operation: 'waitForPayment' })).toEqual([
			{ type: 'main', displayName: 'Timed Out' },
			{ type: 'main', displayName: 'Paid' },
			{ type: 'main', displayName: 'Failed' },
		]);
	});

	it.each([
		{ resource: 'order', operation: 'createPayment' },
		{ resource: 'order' },
		{ resource: 'transaction', operation: 'getMany' },
	])('one output otherwise (%p)', (parameters) => {
		expect(outputsFor(parameters as Record<string, string>)).toEqual(['main']);
	});
});
