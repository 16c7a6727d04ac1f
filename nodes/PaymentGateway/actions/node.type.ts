import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	order: 'createPayment' | 'authorize' | 'saveCard' | 'chargeSavedCard' | 'createSplitPayment';
	transaction: 'getMany' | 'getPosOrder' | 'uploadDocument';
	payment: 'capture' | 'void' | 'refund';
};

export type PaymentGatewayType = AllEntities<NodeMap>;
