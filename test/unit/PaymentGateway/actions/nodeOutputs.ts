import type { INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { PaymentGateway } from '../../../../nodes/PaymentGateway/PaymentGateway.node';

const gateway = new PaymentGateway();
const nodeTypes: INodeTypes = {
	getByName: () => gateway as INodeType,
	getByNameAndVersion: () => gateway as INodeType,
	getKnownTypes: () => ({}),
};

/** The Payment Gateway node's outputs with these parameters, as n8n evaluates them. */
export function nodeOutputs(parameters: Record<string, string>, typeVersion = 3) {
	const node = {
		id: '1',
		name: 'Gateway',
		type: 'gateway',
		typeVersion,
		position: [0, 0] as [number, number],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('Gateway')!, gateway.description);
}
