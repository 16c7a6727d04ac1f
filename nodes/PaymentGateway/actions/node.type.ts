import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	transaction: 'getMany';
};

export type PaymentGatewayType = AllEntities<NodeMap>;
