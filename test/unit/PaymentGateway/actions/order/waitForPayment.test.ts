import type { INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { PaymentGateway } from '../../../../../nodes/PaymentGateway/PaymentGateway.node';

describe('the node outputs as n8n evaluates them', () => {
	const gateway = new PaymentGateway();
	const nodeTypes: INodeTypes = {
		getByName: () => gateway as INodeType,
		getByNameAndVersion: () => gateway as INodeType,
		getKnownTypes: () => ({}),
	};
	const outputsFor = (parameters: Record<string, string>) => {
		const node = {
			id: '1',
			name: 'Gateway',
			type: 'gateway',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters,
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Gateway')!, gateway.description);
	};

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
