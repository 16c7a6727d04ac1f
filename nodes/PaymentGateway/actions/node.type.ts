import type { AllEntities } from 'n8n-workflow';

export type NodeMap = {
	order:
		| 'createPayment'
		| 'authorize'
		| 'saveCard'
		| 'chargeSavedCard'
		| 'createSplitPayment'
		| 'waitForPayment';
	transaction: 'get' | 'getMany' | 'getPosOrder' | 'uploadDocument';
	payment: 'capture' | 'void' | 'refund';
	paymentLink: 'deactivate' | 'bulkCreate';
	payout: 'bulkCreate';
	invoiceItem: 'create' | 'update' | 'activate' | 'deactivate' | 'delete' | 'get' | 'getMany';
	subscriptionPlan: 'create';
};

export type PaymentGatewayType = AllEntities<NodeMap>;
