import type { AllEntities } from 'n8n-workflow';

import type { RESOURCES } from './resources';

/** Resource → its operations' values, read from the resource map (actions/resources.ts). */
export type NodeMap = {
	[R in keyof typeof RESOURCES]: keyof (typeof RESOURCES)[R]['operations'] & string;
};

export type PaymentGatewayType = AllEntities<NodeMap>;
