// The payout results trigger's path, resolved by n8n-workflow 2.41 itself (what n8n's live webhooks
// call before its expression engine): natively for a static path, by the engine for an expression.
import {
	fromParameter,
	resolveWebhookDescriptionField,
	webhookDescriptionFields,
	Workflow,
	type INode,
	type INodeTypes,
	type IWebhookDescription,
} from 'n8n-workflow';

import { fieldFromParameter } from '../../../nodes/n8n-internals';
import { PaymentGatewayPayoutTrigger } from '../../../nodes/PaymentGatewayPayoutTrigger/PaymentGatewayPayoutTrigger.node';

const description = new PaymentGatewayPayoutTrigger().description.webhooks![0];
const node = (path: string): INode => ({
	id: 'n1',
	name: 'Payout Results',
	type: 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: { path },
});

test('a static path is resolved without the expression engine, as typed', () => {
	expect(resolveWebhookDescriptionField(node('payroll/results'), description, 'path')).toEqual({
		resolved: true,
		value: 'payroll/results',
	});
});

test('a path given by an expression is left to the engine', () => {
	expect(resolveWebhookDescriptionField(node('={{ "a" }}'), description, 'path')).toEqual({
		resolved: false,
	});
});

test("the field is the one n8n-workflow's own declaration makes (template and resolver key)", () => {
	const own = webhookDescriptionFields({
		path: fromParameter('path'),
	}) as Partial<IWebhookDescription>;
	const ours = fieldFromParameter('path', 'path');
	expect(ours.path).toBe(own.path);
	expect(description.path).toBe(own.path);
	const symbols = (value: object) => Object.getOwnPropertySymbols(value).map(String);
	expect(symbols(ours)).toEqual(symbols(own));
});

test('a node saved without a path gets its default from n8n, then resolved without the engine', () => {
	const trigger = new PaymentGatewayPayoutTrigger();
	const nodeTypes = {
		getByName: () => trigger,
		getByNameAndVersion: () => trigger,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const saved = { ...node(''), parameters: {} };
	const workflow = new Workflow({ nodes: [saved], connections: {}, active: false, nodeTypes });
	expect(resolveWebhookDescriptionField(workflow.nodes[saved.name], description, 'path')).toEqual({
		resolved: true,
		value: 'payout-results',
	});
});
